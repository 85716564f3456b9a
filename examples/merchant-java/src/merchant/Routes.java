package merchant;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import java.io.IOException;

/** The shop's routes: POST /webhooks/payin, GET /orders, GET /thanks; 404 for anything else. */
final class Routes implements HttpHandler {
    private final WebhookHandler webhooks;
    private final Orders orders;

    Routes(WebhookHandler webhooks, Orders orders) {
        this.webhooks = webhooks;
        this.orders = orders;
    }

    @Override
    public void handle(HttpExchange exchange) {
        String method = exchange.getRequestMethod();
        String path = exchange.getRequestURI().getPath();
        try {
            if (method.equals("POST") && path.equals("/webhooks/payin")) {
                webhooks.handle(exchange);
            } else if (method.equals("GET") && path.equals("/orders")) {
                Answers.json(exchange, 200, "application/json", orders.list());
            } else if (method.equals("GET") && path.equals("/thanks")) {
                // The session's redirect_url: where the customer lands after paying.
                Answers.text(exchange, 200, "Thank you! Your payment is being confirmed.\n");
            } else {
                Answers.text(exchange, 404, "Not found\n");
            }
        } catch (IOException | RuntimeException e) {
            // A client gone before its answer, or this shop's own bug: said, and no other request is held up.
            System.err.println(method + " " + path + " failed: " + e);
            if (exchange.getResponseCode() == -1) {
                try {
                    Answers.text(exchange, 500, "Internal error\n");
                } catch (IOException gone) {
                    // Nobody left to tell.
                }
            }
        } finally {
            exchange.close();
        }
    }
}
