<?php
// The second half of ./start: once the built-in server listens, registers its URL with the service
// and leaves the answer's signing secret in the state folder for the router, then prints where the
// endpoint is and the command that checks it.
declare(strict_types=1);

require_once __DIR__ . '/payin_client.php';

[, $port, $stateDir] = $argv;
$baseUrl = getenv('PAYIN_BASE_URL') ?: 'http://127.0.0.1:4010';
$token = getenv('PAYIN_TOKEN') ?: 'example-merchant';
$url = "http://127.0.0.1:{$port}";

// Registered once the server listens: the service may deliver as soon as it knows the URL.
for ($waited = 0; ($connection = @fsockopen('127.0.0.1', (int) $port, $code, $message, 1)) === false; $waited++) {
    if ($waited === 100) {
        fwrite(STDERR, "the server did not start on {$url}: {$message}\n");
        exit(1);
    }
    usleep(50_000);
}
fclose($connection);

try {
    $registration = (new PayinClient($baseUrl, $token))->registerWebhook("{$url}/webhooks/payin");
} catch (PayinError $error) {
    fwrite(STDERR, "registering the webhook URL failed: {$error->getMessage()}\n");
    exit(1);
}
$secret = $registration['signing_secret'];
// Whole or not at all: a request reads the secret at any moment.
file_put_contents("{$stateDir}/signing-secret.new", $secret);
rename("{$stateDir}/signing-secret.new", "{$stateDir}/signing-secret");

echo "merchant listening on {$url}: webhooks at {$url}/webhooks/payin, orders at {$url}/orders\n";
// As `stripe listen` does: the secret of a test account, so that the endpoint can be checked.
// A shop that takes real payments keeps its secret out of its logs.
echo "check the endpoint: npx payin-conformance receiver --url {$url}/webhooks/payin --secret {$secret} --base-url {$baseUrl} --token {$token}\n";
