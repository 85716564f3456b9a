package merchant;

import com.sun.net.httpserver.HttpServer;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.Executors;

/**
 * The merchant's webhook endpoint: registers http://127.0.0.1:PORT/webhooks/payin with the
 * service, verifies each delivery with the secret the registration answers, and keeps the orders
 * (GET /orders) up to date.
 *
 * <p>Run it: ./start (PAYIN_BASE_URL, default http://127.0.0.1:4010; PAYIN_TOKEN, default
 * example-merchant; PORT, default 3000).
 */
public final class Start {
    public static void main(String[] args) throws Exception {
        String baseUrl = setting("PAYIN_BASE_URL", "http://127.0.0.1:4010");
        String token = setting("PAYIN_TOKEN", "example-merchant");

        // Bound first: the registration needs the URL, whose port PORT=0 picks. A delivery that
        // comes before the secret waits in the listen queue until start() below.
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", Integer.parseInt(setting("PORT", "3000"))), 0);
        String url = "http://127.0.0.1:" + server.getAddress().getPort();

        PayinClient payin = new PayinClient(baseUrl, token);
        String secret;
        try {
            // Registering again replaces the URL and keeps the secret.
            secret = payin.registerWebhook(url + "/webhooks/payin");
        } catch (PayinProblem | java.io.IOException e) {
            System.err.println("cannot register the webhook URL at " + baseUrl + ": " + e.getMessage());
            System.exit(1);
            return;
        }

        Orders orders = new Orders();
        server.createContext("/", new Routes(new WebhookHandler(payin, orders, List.of(secret)), orders));
        // Each request on a thread of its own: a slow fetch of a transaction holds up no other delivery.
        server.setExecutor(Executors.newCachedThreadPool());
        server.start();

        System.out.println("merchant listening on " + url + ": webhooks at " + url + "/webhooks/payin, orders at " + url + "/orders");
        // As `stripe listen` does: the secret of a test account, so that the endpoint can be checked.
        // A shop that takes real payments keeps its secret out of its logs.
        System.out.println("check the endpoint: npx payin-conformance receiver --url " + url + "/webhooks/payin --secret " + secret
                + " --base-url " + baseUrl + " --token " + token);
    }

    static String setting(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isEmpty() ? fallback : value;
    }
}
