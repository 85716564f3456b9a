package merchant;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The webhook endpoint, POST /webhooks/payin. Three rules, in this order: verify the delivery,
 * dedupe it on the event id, and process it (on a transaction event, fetch the transaction and
 * update the order from it). A delivery that fails verification is refused with 4xx; when the
 * shop's own processing fails, the answer is 503, and the service delivers the event again.
 */
public final class WebhookHandler implements HttpHandler {
    /** An event is a few hundred bytes: a body past this is refused rather than read into memory. */
    static final int MAX_BODY = 1 << 20;

    private final PayinClient payin;
    private final Orders orders;
    /** More than one while the secret rotates: a delivery signed with any of them is the service's. */
    private final List<String> secrets;
    /** The ids of the events processed; in a real shop, a table keyed by the event id. */
    private final Set<String> processed = ConcurrentHashMap.newKeySet();

    public WebhookHandler(PayinClient payin, Orders orders, List<String> secrets) {
        this.payin = payin;
        this.orders = orders;
        this.secrets = List.copyOf(secrets);
    }

    // docs:handler:start
    @Override
    public void handle(HttpExchange exchange) throws IOException {
        // The raw body, exactly as received: the signature is over these bytes. Reading stops past 1 MB.
        byte[] body = exchange.getRequestBody().readNBytes(MAX_BODY + 1);
        if (body.length > MAX_BODY) {
            Answers.problem(exchange, 413, "Payload Too Large", "A delivery is at most 1 MB.");
            return;
        }

        // 1. Verify the signature before reading anything the body says.
        PayinEvent event;
        try {
            WebhookVerifier.verify(body, exchange.getRequestHeaders(), secrets, Instant.now().getEpochSecond());
            event = PayinEvent.parse(body, WebhookVerifier.headerValue(exchange.getRequestHeaders(), "webhook-id"));
        } catch (WebhookVerificationException refused) {
            if (refused.reason().equals("unknown_event_type")) {
                // Authentic, of a type added after this shop was written: acknowledged, or the
                // service retries it for days (decision D22).
                System.err.println("ignored: " + refused.getMessage());
                Answers.noContent(exchange);
                return;
            }
            // Not a delivery the service made (forged, changed, stale), or not an event: refused, nothing done.
            System.err.println("refused a delivery: " + refused.reason() + ": " + refused.getMessage());
            Answers.json(exchange, (int) refused.problem().get("status"), "application/problem+json", refused.problem());
            return;
        }

        // 2. Dedupe: deliveries come at least once, with the same event id.
        if (processed.contains(event.id())) {
            Answers.noContent(exchange);
            return;
        }
        // 3. Process, then record the event as processed, only once that succeeded: recorded before,
        // a failure would make its redelivery look like a duplicate, and the event would be lost.
        try {
            process(event);
        } catch (Exception failed) { // the service unreachable after the retries, a database down: our own failure
            System.err.println(event.type() + " " + event.id() + " not handled, the service will deliver it again: " + failed);
            Answers.problem(exchange, 503, "Service Unavailable", "Not handled; deliver it again.");
            return;
        }
        processed.add(event.id());
        Answers.noContent(exchange);
    }

    /**
     * Updates the order an event is about. A transaction event is fetched: the transaction is the
     * truth, the event only says that something changed (and may come late or out of order).
     */
    private void process(PayinEvent event) throws IOException, InterruptedException, PayinProblem {
        if (event.isTransactionEvent()) {
            PayinClient.Transaction transaction = payin.getTransaction(event.transactionId());
            String why = event.type() + "; " + transaction.id() + " is " + transaction.status()
                    + (transaction.failureReason() == null ? "" : ": " + transaction.failureReason());
            report(orders.applyTransaction(transaction), why);
        } else {
            report(orders.applySession(event.data()), event.type());
        }
    }
    // docs:handler:end

    private static void report(String change, String why) {
        if (change != null) System.out.println(change + " (" + why + ")");
    }
}
