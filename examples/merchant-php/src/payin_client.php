<?php
// The Payin API client, on PHP's HTTP stream wrapper: the four calls the shop makes, each retried as
// the package's client retries. A lost connection, a timeout (30 s an attempt), 429 and 503 are
// tried again, twice, after an exponential backoff with jitter (from 500 ms, at most 10 s) or the
// answer's Retry-After. Every POST carries one Idempotency-Key on all its attempts: a create whose
// answer was lost is answered again, not made twice.
declare(strict_types=1);

/** The service refused the request ($status and its problem document), or could not be reached ($status is null). */
final class PayinError extends Exception
{
    public function __construct(string $message, public readonly ?int $status = null, public readonly array $problem = [])
    {
        parent::__construct($message);
    }
}

final class PayinClient
{
    private const RETRIES = 2;
    private const BASE_DELAY_SECONDS = 0.5;
    private const MAX_DELAY_SECONDS = 10.0;
    private const TIMEOUT_SECONDS = 30;
    private const RETRIED_STATUSES = [429, 503];

    public function __construct(private readonly string $baseUrl, private readonly string $token)
    {
    }

    /** The customer as a PAYIN counterparty; its id, or the existing one's for a returning customer (409). */
    public function createCounterparty(array $customer): string
    {
        try {
            return $this->request('POST', '/api/v1/send/counterparties/', ['type' => 'INDIVIDUAL', 'payment_rail' => 'PAYIN'] + $customer)['id'];
        } catch (PayinError $error) {
            if ($error->status === 409 && ($error->problem['code'] ?? null) === 'counterparty_exists') {
                return $error->problem['existing_id'];
            }
            throw $error;
        }
    }

    public function createPaymentSession(array $session, ?string $idempotencyKey = null): array
    {
        return $this->request('POST', '/api/v1/earn/payment-sessions/', $session, $idempotencyKey);
    }

    public function getTransaction(string $transactionId): array
    {
        return $this->request('GET', '/api/v1/earn/transactions/' . rawurlencode($transactionId) . '/');
    }

    /** Registers the URL events go to (registering again replaces it); the answer's signing_secret signs them. */
    public function registerWebhook(string $url): array
    {
        return $this->request('POST', '/webhooks', ['url' => $url]);
    }

    private function request(string $method, string $path, ?array $body = null, ?string $idempotencyKey = null): array
    {
        $headers = ["Authorization: Bearer {$this->token}", 'Accept: application/json', 'Connection: close'];
        if ($body !== null) {
            $headers[] = 'Content-Type: application/json';
        }
        if ($method === 'POST') {
            // Made once, before the first attempt: every retry is the same request.
            $headers[] = 'Idempotency-Key: ' . ($idempotencyKey ?? uuid4());
        }
        $context = stream_context_create(['http' => [
            'method' => $method,
            'header' => implode("\r\n", $headers),
            'content' => $body === null ? '' : json_encode($body, JSON_THROW_ON_ERROR | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE),
            'timeout' => self::TIMEOUT_SECONDS,
            'protocol_version' => 1.1,
            'follow_location' => 0,
            // Without it, a 4xx or 5xx answer is a warning and no body.
            'ignore_errors' => true,
        ]]);
        for ($attempt = 0; ; $attempt++) {
            $answer = @file_get_contents($this->baseUrl . $path, false, $context);
            // Filled in by file_get_contents with the answer's status line and headers; empty when none came.
            $responseHeaders = $http_response_header ?? [];
            $status = $answer === false ? null : status_of($responseHeaders);
            if ($status === null) {
                // No answer: refused, reset, or slower than the timeout.
                if ($attempt === self::RETRIES) {
                    throw new PayinError("{$method} {$path}: " . (error_get_last()['message'] ?? 'no answer'));
                }
                usleep((int) (retry_delay($attempt, null) * 1e6));
                continue;
            }
            $decoded = json_decode($answer, true);
            if ($status < 400) {
                if (!is_array($decoded)) {
                    throw new PayinError("{$method} {$path}: {$status}, and not a JSON object", $status);
                }
                return $decoded;
            }
            if (!in_array($status, self::RETRIED_STATUSES, true) || $attempt === self::RETRIES) {
                $problem = is_array($decoded) ? $decoded : [];
                throw new PayinError(trim("{$method} {$path}: {$status} " . ($problem['code'] ?? '')), $status, $problem);
            }
            usleep((int) (retry_delay($attempt, header_of($responseHeaders, 'Retry-After')) * 1e6));
        }
    }
}

/** Retry-After's seconds when the service gave them, else half of base x 2^attempt plus up to as much again at random; at most 10 s. */
function retry_delay(int $attempt, ?string $retryAfter): float
{
    if ($retryAfter !== null && preg_match('/^[0-9]+$/D', trim($retryAfter)) === 1) {
        return min(10.0, (float) trim($retryAfter));
    }
    $ceiling = min(10.0, 0.5 * 2 ** $attempt);
    // Equal jitter: clients that failed together do not all retry together.
    return $ceiling / 2 + mt_rand() / mt_getrandmax() * $ceiling / 2;
}

/** The status of the last status line (the stream wrapper lists each answer's, a 100 Continue's too). */
function status_of(array $responseHeaders): ?int
{
    $status = null;
    foreach ($responseHeaders as $line) {
        if (preg_match('#^HTTP/\S+ ([0-9]{3})#', $line, $match) === 1) {
            $status = (int) $match[1];
        }
    }
    return $status;
}

function header_of(array $responseHeaders, string $name): ?string
{
    foreach ($responseHeaders as $line) {
        [$key, $value] = array_pad(explode(':', $line, 2), 2, null);
        if ($value !== null && strcasecmp(trim($key), $name) === 0) {
            return trim($value);
        }
    }
    return null;
}

function uuid4(): string
{
    $bytes = random_bytes(16);
    $bytes[6] = chr(ord($bytes[6]) & 0x0f | 0x40);
    $bytes[8] = chr(ord($bytes[8]) & 0x3f | 0x80);
    return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
}
