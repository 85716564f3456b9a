import { openapi } from "./documents.ts";

export const EXAMPLE_SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";

/** Every example event of the OpenAPI webhooks: [event type, example name, event]. */
export const exampleEvents: Array<[string, string, any]> = Object.entries<any>(openapi.webhooks).flatMap(([type, item]) =>
  Object.entries<any>(item.post.requestBody.content["application/json"].examples).map(
    ([name, ex]) => [type, name, ex.value] as [string, string, any],
  ),
);

export const exampleEvent = (type: string) => structuredClone(exampleEvents.find(([t]) => t === type)![2]);
