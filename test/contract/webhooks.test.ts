import { describe, expect, it } from "vitest";
import { client, last, newToken, onMock, onSandbox, send, webhookUrl } from "./support/target.ts";

describe("POST and GET /webhooks", () => {
  it("registers the URL, returns a whsec_ signing secret, and fetches it back without the secret", async () => {
    const url = webhookUrl("/webhooks/payins");
    const registered = await client.POST("/webhooks", { body: { url } });
    expect(last().breaches).toEqual([]);
    expect([200, 201]).toContain(registered.response.status);
    expect(registered.data!.signing_secret).toMatch(/^whsec_/);

    const fetched = await client.GET("/webhooks");
    expect(last().breaches).toEqual([]);
    expect(fetched.response.status).toBe(200);
    expect(fetched.data).not.toHaveProperty("signing_secret");
  });

  it("answers a URL that is not HTTPS with 422 naming url", async () => {
    const res = await send("POST", "/webhooks", { body: { url: "http://shop.example.com/hook" } });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(422);
    expect((res.body as any).errors).toContainEqual(expect.objectContaining({ field: "url" }));
  });

  it.runIf(onSandbox)("answers GET with 404 for an account that registered no URL", async () => {
    const res = await send("GET", "/webhooks", { as: newToken() });
    expect(res.breaches).toEqual([]);
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ code: "webhook_not_registered" });
  });

  it.runIf(onMock)("answers GET with 404 when no URL is registered (asked of the mock)", async () => {
    const { error, response } = await client.GET("/webhooks", { headers: { Prefer: "code=404" } });
    expect(response.status).toBe(404);
    expect(error).toMatchObject({ code: "webhook_not_registered" });
  });
});
