package merchant;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Verifies the service's webhook deliveries (Standard Webhooks signatures), as the TypeScript package's verifyWebhook does. */
public final class WebhookVerifier {
    /** How far a delivery's webhook-timestamp may be from now, either way: an older delivery is a replay of one recorded earlier. */
    public static final long TOLERANCE_SECONDS = 300;

    private static final Pattern TIMESTAMP = Pattern.compile("[0-9]{1,12}");
    private static final Pattern BASE64 = Pattern.compile("[A-Za-z0-9+/]*={0,2}");

    private WebhookVerifier() {}

    // docs:verify:start
    /**
     * Checks a delivery's Standard Webhooks signature, before anything reads its body: the three
     * headers are there, the timestamp is within TOLERANCE_SECONDS of now, and one of the v1
     * signatures is the HMAC-SHA256 of "{id}.{timestamp}.{body}" under one of the secrets (several
     * while a secret rotates). nowSeconds is the caller's clock (Unix seconds). Throws, with the
     * reason of the first check that failed, in this order.
     */
    public static void verify(byte[] body, Map<String, List<String>> headers, List<String> secrets, long nowSeconds)
            throws WebhookVerificationException {
        List<byte[]> keys = new ArrayList<>();
        for (String secret : secrets) keys.add(secretKey(secret));
        if (keys.isEmpty()) throw new WebhookVerificationException("invalid_secret", "No signing secret is configured.");

        String id = headerValue(headers, "webhook-id");
        String timestamp = headerValue(headers, "webhook-timestamp");
        String signatures = headerValue(headers, "webhook-signature");
        if (id.isEmpty()) throw new WebhookVerificationException("missing_header", "The webhook-id header is missing.");
        if (timestamp.isEmpty()) throw new WebhookVerificationException("missing_header", "The webhook-timestamp header is missing.");
        if (signatures.isEmpty()) throw new WebhookVerificationException("missing_header", "The webhook-signature header is missing.");

        if (!TIMESTAMP.matcher(timestamp).matches())
            throw new WebhookVerificationException("invalid_timestamp", "The webhook-timestamp header is not Unix seconds: " + timestamp);
        long skew = nowSeconds - Long.parseLong(timestamp); // 12 digits at most: it fits
        if (skew > TOLERANCE_SECONDS)
            throw new WebhookVerificationException("timestamp_too_old", "The delivery was signed " + skew + " s ago: too old.");
        if (skew < -TOLERANCE_SECONDS)
            throw new WebhookVerificationException("timestamp_too_new", "The delivery is signed " + -skew + " s in the future: too far.");

        // Space-separated entries ("v1,<base64>", maybe other versions); a header repeated by a proxy
        // comes joined with ", ". Every entry is compared under every key, in constant time
        // (MessageDigest.isEqual), so the time taken does not tell an attacker how close a guess
        // came, nor which entry matched.
        boolean matched = false;
        for (byte[] key : keys) {
            byte[] expected = signature(key, id, timestamp, body).getBytes(UTF_8);
            for (String entry : signatures.split(" ", -1)) {
                if (entry.endsWith(",")) entry = entry.substring(0, entry.length() - 1);
                if (!entry.startsWith("v1,")) continue; // another scheme's signature: not ours to check
                if (MessageDigest.isEqual(entry.getBytes(UTF_8), expected)) matched = true;
            }
        }
        if (!matched)
            throw new WebhookVerificationException("invalid_signature", "No v1 signature in webhook-signature matches the body.");
    }

    /** The v1 signature the service sends: "v1," and the base64 of the HMAC-SHA256 of "{id}.{timestamp}.{body}", the body's exact bytes. */
    static String signature(byte[] key, String id, String timestamp, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            mac.update((id + "." + timestamp + ".").getBytes(UTF_8));
            return "v1," + Base64.getEncoder().encodeToString(mac.doFinal(body));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("Every Java has HmacSHA256", e);
        }
    }
    // docs:verify:end

    /** The HMAC key of a signing secret: "whsec_" and standard, padded base64 (the prefix may be left off). */
    static byte[] secretKey(String secret) throws WebhookVerificationException {
        String encoded = secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret;
        // Java's decoder alone would take base64 without its padding; the TypeScript package does not.
        if (encoded.isEmpty() || !BASE64.matcher(encoded).matches() || encoded.length() % 4 != 0)
            throw new WebhookVerificationException("invalid_secret", "The signing secret must be whsec_ followed by base64.");
        try {
            return Base64.getDecoder().decode(encoded);
        } catch (IllegalArgumentException e) { // '=' in the middle
            throw new WebhookVerificationException("invalid_secret", "The signing secret must be whsec_ followed by base64.");
        }
    }

    /**
     * A header's value by its name in any case, its repeats joined with ", " as a proxy (or Node)
     * joins them; "" when absent.
     */
    static String headerValue(Map<String, List<String>> headers, String name) {
        List<String> values = new ArrayList<>();
        for (Map.Entry<String, List<String>> header : headers.entrySet()) {
            if (header.getKey().equalsIgnoreCase(name)) values.addAll(header.getValue());
        }
        return String.join(", ", values);
    }
}
