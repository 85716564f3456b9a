package merchant;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.math.BigDecimal;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A small client of the Payin Acceptance Service: JSON in and out, a bearer token, and retries
 * that are safe, as the TypeScript package's client does them. Every call throws
 * {@link PayinProblem} when the service answers that it did not do it, and IOException when no
 * answer came after the retries.
 */
public final class PayinClient {
    /** The TypeScript client's defaults: 30 s an attempt, two retries, the first after about 500 ms, none after more than 10 s. */
    private static final Duration ATTEMPT_TIMEOUT = Duration.ofSeconds(30);
    private static final int RETRIES = 2;
    private static final long BASE_DELAY_MS = 500;
    private static final long MAX_DELAY_MS = 10_000;

    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(ATTEMPT_TIMEOUT)
            .build();
    private final String baseUrl;
    private final String token;

    /** On the sandbox, any token is an account of its own. */
    public PayinClient(String baseUrl, String token) {
        this.baseUrl = baseUrl.replaceAll("/+$", "");
        this.token = token;
    }

    /** A customer to collect from. */
    public record NewCounterparty(String firstName, String lastName, String email, String phoneNumber) {}

    /** What to charge a counterparty; amounts in major units (49.99 EUR). The sandbox also takes a loopback http:// redirect URL. */
    public record NewPaymentSession(BigDecimal amount, String currency, String counterpartyId, String orderId, String redirectUrl) {}

    /** A created session, with the link to send the customer to (valid one hour). */
    public record PaymentSession(String id, String paymentLink, BigDecimal amount, String currency, String orderId) {}

    /** The truth about a payment: its status is created, completed, settled or failed. */
    public record Transaction(
            String id, String status, String sessionId, String orderId, BigDecimal amount, String currency, String failureReason) {}

    /**
     * Creates a PAYIN counterparty and returns its id. One with the same email and phone number
     * exists already: a PayinProblem with the code counterparty_exists and its existingId().
     */
    public String createCounterparty(NewCounterparty customer) throws IOException, InterruptedException, PayinProblem {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("type", "INDIVIDUAL");
        body.put("payment_rail", "PAYIN");
        body.put("first_name", customer.firstName());
        body.put("last_name", customer.lastName());
        body.put("email", customer.email());
        body.put("phone_number", customer.phoneNumber());
        return (String) call("POST", "/api/v1/send/counterparties/", body).get("id");
    }

    public PaymentSession createPaymentSession(NewPaymentSession session) throws IOException, InterruptedException, PayinProblem {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("amount", session.amount());
        body.put("currency", session.currency());
        body.put("counterparty_id", session.counterpartyId());
        body.put("order_id", session.orderId());
        body.put("redirect_url", session.redirectUrl());
        Map<?, ?> created = call("POST", "/api/v1/earn/payment-sessions/", body);
        return new PaymentSession((String) created.get("id"), (String) created.get("payment_link"), (BigDecimal) created.get("amount"),
                (String) created.get("currency"), (String) created.get("order_id"));
    }

    public Transaction getTransaction(String transactionId) throws IOException, InterruptedException, PayinProblem {
        Map<?, ?> t = call("GET", "/api/v1/earn/transactions/" + URLEncoder.encode(transactionId, UTF_8) + "/", null);
        return new Transaction((String) t.get("id"), (String) t.get("status"), (String) t.get("session_id"), (String) t.get("order_id"),
                (BigDecimal) t.get("amount"), (String) t.get("currency"), (String) t.get("failure_reason"));
    }

    /**
     * Sets the URL the account's events go to, and returns the secret that signs them (whsec_…):
     * made at the first registration, kept when the URL is replaced.
     */
    public String registerWebhook(String url) throws IOException, InterruptedException, PayinProblem {
        return (String) call("POST", "/webhooks", Map.of("url", url)).get("signing_secret");
    }

    /**
     * Sends a request (a POST with a new Idempotency-Key, the same on each of its attempts, so that
     * a create whose answer was lost is answered again rather than made twice) and returns the
     * JSON object of its 2xx answer.
     */
    private Map<?, ?> call(String method, String path, Map<String, Object> body) throws IOException, InterruptedException, PayinProblem {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(baseUrl + path))
                .timeout(ATTEMPT_TIMEOUT)
                .header("Authorization", "Bearer " + token)
                .header("Accept", "application/json")
                .method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(Json.write(body)));
        if (body != null) request.header("Content-Type", "application/json");
        if (method.equals("POST")) request.header("Idempotency-Key", UUID.randomUUID().toString());
        HttpResponse<String> response = withRetries(request.build());

        Object answer;
        try {
            answer = Json.parse(response.body());
        } catch (Json.SyntaxError e) {
            answer = Map.of();
        }
        Map<?, ?> object = answer instanceof Map<?, ?> map ? map : Map.of();
        if (response.statusCode() / 100 != 2) throw new PayinProblem(response.statusCode(), object, response.body());
        return object;
    }

    /**
     * Up to 1 + RETRIES attempts of the same request: again after a lost connection, a timeout, a
     * 429 or a 503, never after another answer, which says the request itself is wrong. Returns
     * the last answer, or throws the last attempt's error.
     */
    private HttpResponse<String> withRetries(HttpRequest request) throws IOException, InterruptedException {
        for (int attempt = 0; ; attempt++) {
            HttpResponse<String> response = null;
            try {
                response = http.send(request, HttpResponse.BodyHandlers.ofString(UTF_8));
                if (attempt == RETRIES || (response.statusCode() != 429 && response.statusCode() != 503)) return response;
            } catch (IOException lostOrTimedOut) {
                if (attempt == RETRIES) throw lostOrTimedOut;
            }
            Thread.sleep(retryDelayMs(attempt, response == null ? Optional.empty() : response.headers().firstValue("Retry-After")));
        }
    }

    /**
     * The wait before retry n (0 for the first): the answer's Retry-After in seconds when it has
     * one, else half of base × 2ⁿ plus up to as much again at random (so that clients that failed
     * together do not retry together); never more than MAX_DELAY_MS.
     */
    static long retryDelayMs(int n, Optional<String> retryAfter) {
        if (retryAfter.isPresent() && retryAfter.get().trim().matches("[0-9]{1,9}"))
            return Math.min(Long.parseLong(retryAfter.get().trim()) * 1000, MAX_DELAY_MS);
        long ceiling = Math.min(BASE_DELAY_MS << n, MAX_DELAY_MS);
        return ceiling / 2 + ThreadLocalRandom.current().nextLong(ceiling / 2 + 1);
    }
}
