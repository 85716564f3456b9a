package merchant;

import java.math.BigDecimal;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;

/**
 * A verified delivery's event: its id, its type, and its data (identifiers and the state
 * announced; a transaction event's data has a transaction_id).
 */
public record PayinEvent(String id, String type, Map<String, Object> data) {
    /** The seven events this shop knows; the service may add others later. */
    public static final Set<String> TYPES = Set.of(
            "session-created", "session-completed", "session-expired",
            "transaction-created", "transaction-completed", "transaction-failed", "transaction-settled");

    /** Whether the event announces a change of a transaction, which the shop fetches: the transaction is the truth, not the event. */
    public boolean isTransactionEvent() {
        return type.startsWith("transaction-");
    }

    public String transactionId() {
        return (String) data.get("transaction_id");
    }

    /**
     * Reads the event of a body that {@link WebhookVerifier} accepted. An authentic event of a type
     * added after this shop was written is refused with the reason unknown_event_type, to be
     * acknowledged and ignored; a body that is not JSON, or not an event, with invalid_payload or
     * invalid_event.
     */
    @SuppressWarnings("unchecked")
    public static PayinEvent parse(byte[] body, String webhookId) throws WebhookVerificationException {
        Object json;
        try {
            // JSON is UTF-8: other bytes are refused, not replaced.
            json = Json.parse(StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(body)).toString());
        } catch (CharacterCodingException | Json.SyntaxError e) {
            throw new WebhookVerificationException("invalid_payload", "The body is not UTF-8 JSON: " + e.getMessage());
        }
        if (!(json instanceof Map<?, ?> event) || !(event.get("type") instanceof String type))
            throw new WebhookVerificationException("invalid_event", "The body has no event type: it is not an event.");
        if (!TYPES.contains(type))
            throw new WebhookVerificationException(
                    "unknown_event_type", "The event type " + type + " is not one this shop knows: acknowledged and ignored.");
        // The fields the shop reads, with their types; the contract's schemas say more, which it does not read.
        if (!webhookId.equals(event.get("id")))
            throw new WebhookVerificationException("invalid_event", "The event id differs from the webhook-id header " + webhookId + ".");
        if (!(event.get("data") instanceof Map<?, ?> data))
            throw new WebhookVerificationException("invalid_event", "The " + type + " event has no data.");
        boolean transactionEvent = type.startsWith("transaction-");
        if (!(data.get("session_id") instanceof String)
                || !(data.get("status") instanceof String)
                || !(data.get("currency") instanceof String)
                || !(data.get("amount") instanceof BigDecimal)
                || (data.containsKey("order_id") && !(data.get("order_id") instanceof String))
                || (transactionEvent && !(data.get("transaction_id") instanceof String)))
            throw new WebhookVerificationException(
                    "invalid_event", "The " + type + " event lacks one of the fields the shop reads, or has it of another type.");
        return new PayinEvent(webhookId, type, (Map<String, Object>) data);
    }
}
