<?php
// The Standard Webhooks verifier the handler calls, and that ./verify-vectors runs over the vectors
// file. It checks the signature and the timestamp of a delivery, in the order the package's
// verifyWebhook does (so that a refusal names the same reason): the three headers, the timestamp's
// form, its distance from now, then the signatures. It parses nothing: the body is only trusted
// once this has passed.
declare(strict_types=1);

const TOLERANCE_SECONDS = 300;
const PROBLEM_TYPE_BASE = 'https://docs.payin.example.com/problems/';

/** A delivery refused, or a secret that is not one; `reason` says which check failed. */
final class WebhookVerificationError extends Exception
{
    public function __construct(public readonly string $reason, string $message)
    {
        parent::__construct($message);
    }

    /** The answer, as the package's toProblem(): 401 for a delivery that is not the service's, 500 for our own bad secret. */
    public function toProblem(): array
    {
        $status = $this->reason === 'invalid_secret' ? 500 : 401;
        $code = "webhook_{$this->reason}";
        $title = $status === 500 ? 'Webhook receiver misconfigured' : 'Webhook verification failed';
        return ['type' => PROBLEM_TYPE_BASE . $code, 'title' => $title, 'status' => $status, 'detail' => $this->getMessage(), 'code' => $code];
    }
}

// docs:verify:start
/**
 * Throws WebhookVerificationError unless one of $secrets signed this delivery within $tolerance
 * seconds of $now (Unix seconds). $body is the raw body, exactly as received.
 */
function verify_webhook(string $body, array $headers, array $secrets, int $now, int $tolerance = TOLERANCE_SECONDS): void
{
    $keys = secret_keys($secrets);
    $id = required_header($headers, 'webhook-id');
    $timestamp = required_header($headers, 'webhook-timestamp');
    $signatures = required_header($headers, 'webhook-signature');

    // 1 to 12 ASCII digits; D: without it, $ lets a trailing newline through.
    if (preg_match('/^[0-9]{1,12}$/D', $timestamp) !== 1) {
        throw new WebhookVerificationError('invalid_timestamp', "The webhook-timestamp header is not a Unix time in seconds: \"{$timestamp}\".");
    }
    $skew = $now - (int) $timestamp;
    if ($skew > $tolerance) {
        throw new WebhookVerificationError('timestamp_too_old', "The delivery was signed {$skew} s ago, more than the {$tolerance} s tolerance.");
    }
    if ($skew < -$tolerance) {
        throw new WebhookVerificationError('timestamp_too_new', 'The delivery is signed ' . -$skew . " s in the future, more than {$tolerance} s.");
    }

    // The raw bytes as received: JSON decoded and encoded again would not give the same ones.
    $signed = "{$id}.{$timestamp}.{$body}";
    $expected = array_map(fn (string $key) => 'v1,' . base64_encode(hash_hmac('sha256', $signed, $key, true)), $keys);
    // Space-separated; a header repeated by a proxy arrives joined with ", ". Every candidate is compared
    // with every secret's signature, in constant time, so the time taken tells nothing about a match.
    $matched = false;
    foreach (explode(' ', $signatures) as $candidate) {
        $candidate = str_ends_with($candidate, ',') ? substr($candidate, 0, -1) : $candidate;
        foreach ($expected as $signature) {
            $matched = hash_equals($signature, $candidate) || $matched;
        }
    }
    if (!$matched) {
        throw new WebhookVerificationError('invalid_signature', 'No v1 signature in webhook-signature matches the body under this secret.');
    }
}
// docs:verify:end

/** The HMAC keys of the secrets; none at all would refuse every delivery without saying why. */
function secret_keys(array $secrets): array
{
    if ($secrets === []) {
        throw new WebhookVerificationError('invalid_secret', 'The list of signing secrets is empty: give at least one.');
    }
    return array_map('secret_key', $secrets);
}

/** The HMAC key of a signing secret: whsec_ and base64 (strict: padded, the standard alphabet), the prefix optional. */
function secret_key(string $secret): string
{
    $encoded = str_starts_with($secret, 'whsec_') ? substr($secret, strlen('whsec_')) : $secret;
    $key = strlen($encoded) % 4 === 0 && preg_match('/^[A-Za-z0-9+\/]*={0,2}$/D', $encoded) === 1 ? base64_decode($encoded, true) : false;
    if ($key === false || $key === '') {
        throw new WebhookVerificationError('invalid_secret', 'The signing secret must be whsec_ followed by base64, as POST /webhooks returns it.');
    }
    return $key;
}

/** The header's value, by its name in any case; present and not empty, or the delivery is refused. */
function required_header(array $headers, string $name): string
{
    $values = [];
    foreach ($headers as $key => $value) {
        if (strtolower((string) $key) === $name) {
            $values[] = $value;
        }
    }
    // A header sent twice is one list, as a proxy that joins them would send it.
    $value = implode(', ', $values);
    if ($value === '') {
        throw new WebhookVerificationError('missing_header', "The {$name} header is missing.");
    }
    return $value;
}
