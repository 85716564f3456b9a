// The sandbox's pages as operations of the service entry, met by the same rules as every API call:
// the payment page behind every payment_link (no token, since a customer's browser has none: its
// calls count against the client's address) and the dashboard of an account (its bearer token,
// as every API call's). What they take is checked by the documents' own validators: the page's
// session id as the control API's, its Pay or Fail as the body of simulate.
import type { Page } from "./page.ts";
import { payOnPaymentPage } from "./pay-on-payment-page.ts";
import { showDashboard } from "./show-dashboard.ts";
import { showPaymentPage } from "./show-payment-page.ts";

export { PAGE_PREFIX } from "../../flow/urls.ts";
export type { DashboardData } from "./show-dashboard.ts";
export type { DashboardAttempt, DashboardEvent } from "./dashboard-events.ts";
export { FILTER_PARAMETERS, type FilterQuery } from "./dashboard-filter.ts";

export const PAGES = {
  showPaymentPage: { caller: "customer", validatedAs: "getSandboxPaymentSession", handle: showPaymentPage },
  payOnPaymentPage: { caller: "customer", validatedAs: "simulatePayment", handle: payOnPaymentPage },
  showDashboard: { caller: "account", handle: showDashboard },
  // Signing in checks the token as any call does, and does nothing else.
  signInToDashboard: { caller: "account", handle: async () => ({ status: 204 }) },
} satisfies Record<string, Page>;

export type PageId = keyof typeof PAGES;
