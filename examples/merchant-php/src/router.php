<?php
// The router of PHP's built-in server (php -S, see ./start): POST /webhooks/payin to the handler,
// GET /orders, GET /thanks, 404 for anything else. Each request is a fresh run of this script, on
// one of the server's worker processes; what must outlive it is in the state folder ./start made
// (MERCHANT_STATE_DIR): the signing secret, the orders, the events handled.
declare(strict_types=1);

require_once __DIR__ . '/handler.php';

const MAX_BODY_BYTES = 1024 * 1024;

function answer_json(int $status, mixed $body, string $contentType = 'application/json'): void
{
    http_response_code($status);
    header("Content-Type: {$contentType}");
    echo json_encode($body, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
}

function answer_text(int $status, string $text): void
{
    http_response_code($status);
    header('Content-Type: text/plain; charset=utf-8');
    echo $text;
}

/** The raw body, at most 1 MiB; null once a refusal is answered. */
function read_body(): ?string
{
    // The built-in server has read the whole request before this runs; a server in front (nginx's
    // client_max_body_size 1m) is what keeps a large one out of memory in production.
    $length = $_SERVER['CONTENT_LENGTH'] ?? '';
    $body = ctype_digit($length) && (int) $length > MAX_BODY_BYTES ? null : file_get_contents('php://input', false, null, 0, MAX_BODY_BYTES + 1);
    if ($body === null || strlen($body) > MAX_BODY_BYTES) {
        answer_text(413, 'The body is over ' . MAX_BODY_BYTES . " bytes.\n");
        return null;
    }
    return $body;
}

function route(string $method, string $path, string $stateDir): void
{
    $orders = new Orders($stateDir);
    if ($method === 'POST' && $path === '/webhooks/payin') {
        $body = read_body();
        if ($body === null) {
            return;
        }
        // Written by ./start once the URL is registered: before that, there is nothing to verify with.
        $secret = @file_get_contents("{$stateDir}/signing-secret");
        if ($secret === false) {
            answer_json(503, ['type' => 'about:blank', 'title' => 'Service Unavailable', 'status' => 503], 'application/problem+json');
            return;
        }
        $payin = new PayinClient(getenv('PAYIN_BASE_URL') ?: 'http://127.0.0.1:4010', getenv('PAYIN_TOKEN') ?: 'example-merchant');
        $handler = new WebhookHandler($payin, $orders, new ProcessedEvents($stateDir), [$secret]);
        [$status, $problem] = $handler->handle($body, getallheaders());
        if ($problem === null) {
            http_response_code($status);
        } else {
            answer_json($status, $problem, 'application/problem+json');
        }
    } elseif ($method === 'GET' && $path === '/orders') {
        answer_json(200, $orders->list());
    } elseif ($method === 'GET' && str_starts_with($path, '/orders/') && ($order = $orders->get(rawurldecode(substr($path, 8)))) !== null) {
        answer_json(200, $order);
    } elseif ($method === 'GET' && $path === '/thanks') {
        // The session's redirect_url: where the customer lands after paying.
        answer_text(200, "Thank you! Your payment is being confirmed.\n");
    } else {
        answer_text(404, "Not found\n");
    }
}

try {
    route($_SERVER['REQUEST_METHOD'], (string) parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH), getenv('MERCHANT_STATE_DIR'));
} catch (Throwable $error) {
    // This shop's bug: answered and logged; the next request is a fresh run anyway.
    log_error("{$_SERVER['REQUEST_METHOD']} {$_SERVER['REQUEST_URI']} failed: {$error}");
    if (!headers_sent()) {
        answer_text(500, "Internal error\n");
    }
}
