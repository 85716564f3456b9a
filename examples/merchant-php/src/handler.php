<?php
// The webhook handler: from a delivery (its raw body and headers) to the answer. Three rules, in
// this order:
//   1. verify the delivery's signature and timestamp, before anything reads the body;
//   2. dedupe on the event id: deliveries come at least once;
//   3. on a transaction event, fetch the transaction and update the order from it: the transaction
//      is the truth, the event only says that something changed.
// Then answer 2xx. A delivery that fails verification is refused with 4xx; when our own work fails,
// the event is not recorded as handled and the answer is 503: the service delivers it again.
declare(strict_types=1);

require_once __DIR__ . '/verify.php';
require_once __DIR__ . '/orders.php';
require_once __DIR__ . '/payin_client.php';
require_once __DIR__ . '/processed_events.php';

const SESSION_EVENTS = ['session-created' => 'created', 'session-completed' => 'completed', 'session-expired' => 'expired'];
const TRANSACTION_EVENTS = ['transaction-created', 'transaction-completed', 'transaction-failed', 'transaction-settled'];

final class WebhookHandler
{
    /** @param string[] $secrets more than one while the secret rotates: a delivery signed with any of them is the service's */
    public function __construct(
        private readonly PayinClient $payin,
        private readonly Orders $orders,
        private readonly ProcessedEvents $processed,
        private readonly array $secrets,
    ) {
    }

    // docs:handler:start
    /** @return array{0: int, 1: ?array} the status, and the problem document of a refusal */
    public function handle(string $body, array $headers): array
    {
        try {
            verify_webhook($body, $headers, $this->secrets, time());
        } catch (WebhookVerificationError $error) {
            // Not a delivery the service made (forged, changed, replayed): refused, nothing handled.
            log_error("webhook refused: {$error->reason}: {$error->getMessage()}");
            $problem = $error->toProblem();
            return [$problem['status'], $problem];
        }
        try {
            $event = json_decode($body, true, 512, JSON_THROW_ON_ERROR);
        } catch (JsonException $error) { // not UTF-8, or not JSON
            return [400, invalid_event('webhook_invalid_payload', "The body is not UTF-8 JSON: {$error->getMessage()}")];
        }
        if (!is_array($event) || !is_string($event['type'] ?? null)) {
            return [400, invalid_event('webhook_invalid_event', 'The body has no event type: it is not an event.')];
        }
        if (!isset(SESSION_EVENTS[$event['type']]) && !in_array($event['type'], TRANSACTION_EVENTS, true)) {
            // Authentic, of a type added after this shop was written: acknowledged, or it comes again for days.
            log_line("ignored: an event of type \"{$event['type']}\", which this shop does not know");
            return [204, null];
        }
        $missing = missing_fields($event, required_header($headers, 'webhook-id'));
        if ($missing !== null) {
            // Signed, but this shop could never handle it: 4xx, as 5xx would ask for it again and again.
            return [400, invalid_event('webhook_invalid_event', "The {$event['type']} event lacks {$missing}.")];
        }

        if ($this->processed->has($event['id'])) { // a redelivery of an event already handled
            return [204, null];
        }
        try {
            $this->process($event);
        } catch (Throwable $error) {
            // Our own failure (the service unreachable, a database down): not recorded, so the redelivery does the work.
            log_error("{$event['type']} {$event['id']} not handled, the service will deliver it again: {$error->getMessage()}");
            return [503, ['type' => 'about:blank', 'title' => 'Service Unavailable', 'status' => 503, 'detail' => 'Not handled; deliver it again.']];
        }
        $this->processed->add($event['id']); // only once processing succeeded
        return [204, null];
    }
    // docs:handler:end

    private function process(array $event): void
    {
        $data = $event['data'];
        if (in_array($event['type'], TRANSACTION_EVENTS, true)) {
            $transaction = $this->payin->getTransaction($data['transaction_id']);
            $change = $this->orders->applyTransaction($transaction); // the transaction is the truth, not the event
            $why = "{$event['type']}; {$transaction['id']} is {$transaction['status']}";
            if (isset($transaction['failure_reason'])) {
                $why .= ": {$transaction['failure_reason']}";
            }
        } else {
            $change = $this->orders->applySession($data, SESSION_EVENTS[$event['type']]);
            $why = $event['type'];
        }
        if ($change !== null) {
            log_line("{$change} ({$why})");
        }
    }
}

/** What a known event lacks of what handling it needs (its id is the webhook-id, the ids in its data), or null. */
function missing_fields(array $event, string $webhookId): ?string
{
    if (($event['id'] ?? null) !== $webhookId) {
        return 'an id equal to the webhook-id header';
    }
    $data = $event['data'] ?? null;
    if (!is_array($data)) {
        return 'its data';
    }
    $ids = in_array($event['type'], TRANSACTION_EVENTS, true) ? ['session_id', 'transaction_id'] : ['session_id'];
    $absent = array_filter($ids, fn (string $field) => !is_string($data[$field] ?? null) || $data[$field] === '');
    $absent = array_merge($absent, array_filter(['amount', 'currency'], fn (string $field) => !isset($data[$field])));
    if (array_key_exists('order_id', $data) && !is_string($data['order_id'])) {
        $absent[] = 'order_id';
    }
    return $absent === [] ? null : 'data.' . implode(', data.', $absent);
}

function invalid_event(string $code, string $detail): array
{
    return ['type' => PROBLEM_TYPE_BASE . $code, 'title' => 'Invalid webhook event', 'status' => 400, 'detail' => $detail, 'code' => $code];
}

/** A line about the orders, on the server's standard output (echo would write it into the answer). */
function log_line(string $line): void
{
    file_put_contents('php://stdout', "{$line}\n");
}

function log_error(string $line): void
{
    file_put_contents('php://stderr', "{$line}\n");
}
