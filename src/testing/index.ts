// `payin-acceptance-contract/testing`: fixtures for a merchant's unit tests of a webhook
// handler. `buildEvent` makes a valid event of each type, `signedDelivery` the headers and raw
// body a handler receives for it, `refusedDeliveries` the ones it must refuse; a test calls its
// handler with them, no server needed.
export { buildEvent, type DeepPartial, type EventOf } from "./events.ts";
export { refusedDeliveries, signedDelivery, type Delivery, type SignOptions } from "./deliveries.ts";
