package merchant;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/** The shop's answers: a status, and a body of JSON, a problem document or text. */
final class Answers {
    private Answers() {}

    static void noContent(HttpExchange exchange) throws IOException {
        exchange.sendResponseHeaders(204, -1);
    }

    static void json(HttpExchange exchange, int status, String contentType, Object value) throws IOException {
        send(exchange, status, contentType, Json.write(value) + "\n");
    }

    /** A problem document (RFC 9457) of the shop's own, not about a delivery's signature. */
    static void problem(HttpExchange exchange, int status, String title, String detail) throws IOException {
        Map<String, Object> problem = new LinkedHashMap<>();
        problem.put("type", "about:blank");
        problem.put("title", title);
        problem.put("status", status);
        problem.put("detail", detail);
        json(exchange, status, "application/problem+json", problem);
    }

    static void text(HttpExchange exchange, int status, String text) throws IOException {
        send(exchange, status, "text/plain; charset=utf-8", text);
    }

    private static void send(HttpExchange exchange, int status, String contentType, String body) throws IOException {
        byte[] bytes = body.getBytes(UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        // An answer to HEAD has no body: its length is said as -1.
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(status, head ? -1 : bytes.length);
        if (!head) exchange.getResponseBody().write(bytes);
    }
}
