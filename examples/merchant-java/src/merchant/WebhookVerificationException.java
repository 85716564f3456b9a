package merchant;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Why a delivery was not accepted. The reason is one of the TypeScript package's codes:
 * invalid_secret, missing_header, invalid_timestamp, timestamp_too_old, timestamp_too_new,
 * invalid_signature ({@link WebhookVerifier}); invalid_payload, invalid_event, unknown_event_type
 * ({@link PayinEvent#parse}).
 */
public final class WebhookVerificationException extends Exception {
    private final String reason;

    public WebhookVerificationException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }

    /**
     * The answer to the refused delivery, an RFC 9457 problem as the TypeScript package's
     * toProblem() makes it: 401 for a signature or a timestamp (not the service's delivery), 400
     * for a signed body that is no event, 500 for a secret that is not one (the receiver's own
     * fault). The service retries a 5xx, and stops at a 4xx.
     */
    public Map<String, Object> problem() {
        int status = 401;
        String title = "Webhook verification failed";
        if (reason.equals("invalid_payload") || reason.equals("invalid_event") || reason.equals("unknown_event_type")) {
            status = 400;
            title = "Invalid webhook event";
        } else if (reason.equals("invalid_secret")) {
            status = 500;
            title = "Webhook receiver misconfigured";
        }
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "https://docs.payin.example.com/problems/webhook_" + reason);
        problem.put("title", title);
        problem.put("status", status);
        problem.put("detail", getMessage());
        problem.put("code", "webhook_" + reason);
        return problem;
    }
}
