package merchant;

import java.io.IOException;
import java.math.BigDecimal;

/**
 * Checkout: the customer as a PAYIN counterparty, a payment session for a new order, and the
 * payment link to send the customer to. The order is pending until its events say otherwise.
 *
 * <p>Run it: ./checkout (PAYIN_BASE_URL, default http://127.0.0.1:4010; PAYIN_TOKEN, the same as
 * ./start's, default example-merchant; MERCHANT_URL, default http://127.0.0.1:3000).
 */
public final class Checkout {
    public static void main(String[] args) throws InterruptedException {
        PayinClient payin = new PayinClient(
                Start.setting("PAYIN_BASE_URL", "http://127.0.0.1:4010"), Start.setting("PAYIN_TOKEN", "example-merchant"));
        String merchantUrl = Start.setting("MERCHANT_URL", "http://127.0.0.1:3000");
        String orderId = "ORD-" + System.currentTimeMillis();
        try {
            checkout(payin, orderId, merchantUrl);
        } catch (PayinProblem | IOException e) {
            System.err.println("checkout failed: " + e.getMessage());
            System.exit(1);
        }
    }

    static void checkout(PayinClient payin, String orderId, String merchantUrl) throws IOException, InterruptedException, PayinProblem {
        // docs:checkout:start
        // The customer. The client retries a lost connection, a 429 and a 503, with one
        // Idempotency-Key on all the attempts: a create whose answer was lost is not made twice.
        String customerId;
        try {
            customerId = payin.createCounterparty(
                    new PayinClient.NewCounterparty("Lucía", "García", "lucia@example.com", "+34612345678"));
        } catch (PayinProblem problem) {
            // A returning customer (the same email and phone number) is answered 409 with the existing id.
            if (!problem.code().equals("counterparty_exists")) throw problem;
            customerId = problem.existingId();
        }

        PayinClient.PaymentSession session = payin.createPaymentSession(
                new PayinClient.NewPaymentSession(new BigDecimal("49.99"), "EUR", customerId, orderId, merchantUrl + "/thanks"));
        System.out.printf("order %s: pending, %s %s, session %s%n", session.orderId(), session.amount(), session.currency(), session.id());
        System.out.println("payment link: " + session.paymentLink()); // where the shop sends the customer
        // docs:checkout:end
    }
}
