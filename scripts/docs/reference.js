// Mounts Scalar's API reference (scalar.js) on a reference page of the docs site. The first
// server of "Test Request" is the sandbox beside the docs: try-it.json says where it is (the
// build writes `npm start`'s default, and `npm start` serves the address it listens on).
(async () => {
  const configuration = JSON.parse(document.getElementById("reference-configuration").textContent);
  const tryIt = await fetch("try-it.json")
    .then((answer) => (answer.ok ? answer.json() : {}))
    .catch(() => ({}));
  const servers = configuration.content.servers ?? [];
  if (tryIt.sandbox)
    configuration.servers = [
      { url: tryIt.sandbox, description: "The sandbox that `npm start` serves beside these docs (any bearer token is an account)." },
      ...servers.filter((server) => server.url !== tryIt.sandbox),
    ];
  // Each request try-it sends has a key of its own: the example's fixed one would replay the first
  // answer, and an edited body would get 409 idempotency_key_reused. A key the reader typed stays.
  const parameter = Object.values(configuration.content.components?.parameters ?? {}).find((p) => p.name === "Idempotency-Key");
  const exampleKey = parameter?.example ?? parameter?.schema?.examples?.[0];
  configuration.onRequestBuilt = ({ request }) => {
    const key = request.headers.get("Idempotency-Key");
    if (request.method === "POST" && (!key || key === exampleKey)) request.headers.set("Idempotency-Key", crypto.randomUUID());
  };
  // The contract keeps one counterparty per email and phone number: the example sent twice would
  // get 409 counterparty_exists. Sent as prefilled, its email is a fresh one each time (the local
  // part tagged, `lucia.garcia+k3x9q2ab@example.com`); an email the reader typed stays.
  const exampleEmails = new Set();
  const collect = (node) => {
    if (!node || typeof node !== "object") return;
    if (typeof node.email === "string") exampleEmails.add(node.email);
    for (const value of Object.values(node)) collect(value);
  };
  collect(configuration.content.components?.examples);
  configuration.onBeforeRequest = ({ requestBuilder }) => {
    const body = requestBuilder?.body;
    if (body?.mode !== "raw" || typeof body.value !== "string") return;
    let json;
    try {
      json = JSON.parse(body.value);
    } catch {
      return;
    }
    if (!exampleEmails.has(json?.email)) return;
    const [local, domain] = json.email.split("@");
    json.email = `${local}+${crypto.randomUUID().slice(0, 8)}@${domain}`;
    body.value = JSON.stringify(json, null, 2);
  };
  window.Scalar.createApiReference("#reference", configuration);
})();
