// The payment sessions an account lists, as its owner sees them on the sandbox's dashboard once
// signed in with its token: what a tool that left sessions of its own in the account would show.
/** The ids of the sessions the dashboard lists for the account (its newest 50), in no order. */
export async function listedSessions(sandboxUrl: string, token: string): Promise<string[]> {
  const signIn = await fetch(`${sandboxUrl}/_sandbox/dashboard/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: sandboxUrl },
    body: new URLSearchParams({ token }).toString(),
    redirect: "manual",
  });
  const cookie = signIn.headers.get("set-cookie")!.split(";")[0]!;
  const html = await (await fetch(`${sandboxUrl}/_sandbox/dashboard`, { headers: { cookie } })).text();
  return [...new Set(html.match(/\bps_[A-Za-z0-9_-]+/g) ?? [])];
}
