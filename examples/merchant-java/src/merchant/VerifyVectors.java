package merchant;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs the shop's verifier, {@link WebhookVerifier#verify} (the one its handler calls), over a file
 * of test vectors: each case's headers, body, secrets and time, and the verdict expected. Prints
 * "N passed, N failed" and a line per failure; exits 1 when any failed.
 *
 * <p>Run it: ./verify-vectors FILE
 */
public final class VerifyVectors {
    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: ./verify-vectors FILE");
            System.exit(2);
        }
        List<?> cases;
        try {
            cases = (List<?>) ((Map<?, ?>) Json.parse(Files.readString(Path.of(args[0]), UTF_8))).get("cases");
        } catch (Json.SyntaxError | ClassCastException e) {
            System.err.println(args[0] + " is not a vectors file: " + e.getMessage());
            System.exit(2);
            return;
        }

        int passed = 0;
        List<String> failures = new ArrayList<>();
        for (Object item : cases) {
            Map<?, ?> c = (Map<?, ?>) item;
            Map<String, List<String>> headers = new LinkedHashMap<>();
            ((Map<?, ?>) c.get("headers")).forEach((name, value) -> headers.put((String) name, List.of((String) value)));
            byte[] body = Base64.getDecoder().decode((String) c.get("body_base64"));
            List<String> secrets = new ArrayList<>();
            for (Object secret : (List<?>) c.get("secrets")) secrets.add((String) secret);
            long now = ((BigDecimal) c.get("now")).longValueExact();

            Map<?, ?> signature = (Map<?, ?>) c.get("signature");
            String expected = Boolean.TRUE.equals(signature.get("valid")) ? "valid" : (String) signature.get("reason");
            String actual = "valid";
            try {
                WebhookVerifier.verify(body, headers, secrets, now);
            } catch (WebhookVerificationException refused) {
                actual = refused.reason();
            }
            if (actual.equals(expected)) passed++;
            else failures.add(c.get("id") + ": expected " + expected + ", got " + actual);
        }
        System.out.println(passed + " passed, " + failures.size() + " failed");
        failures.forEach(System.out::println);
        if (!failures.isEmpty()) System.exit(1);
    }
}
