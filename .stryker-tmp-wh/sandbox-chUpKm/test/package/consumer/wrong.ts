// @ts-nocheck
// Must not compile: the types of the installed package are real.
import { createPayinClient } from "payin-acceptance-contract";

const payin = createPayinClient({ baseUrl: "http://127.0.0.1:4010", token: "t" });
await payin.POST("/api/v1/earn/payment-sessions/", {
  body: { amount: "49.99", currency: "EUR", counterparty_id: "cp_1", redirect_url: "https://shop.example.com/thanks" },
});
