package merchant;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small JSON reader and writer, since Java's standard library has none. JSON values are Java
 * values: an object is a {@code Map<String, Object>} (keys in their order), an array a
 * {@code List<Object>}, a number a {@link BigDecimal} (exact: 49.99 stays 49.99), and a string,
 * {@code true}, {@code false} and {@code null} are themselves. Strict (RFC 8259): anything else
 * is a {@link SyntaxError}.
 */
public final class Json {
    /** Deeper than this, a document is refused: a 1 MB body of "[[[[…" would otherwise overflow the stack. */
    private static final int MAX_DEPTH = 256;

    /** The text is not JSON. */
    public static final class SyntaxError extends Exception {
        SyntaxError(String message, int at) {
            super(message + " at character " + at);
        }
    }

    private final String text;
    private int at;

    private Json(String text) {
        this.text = text;
    }

    /** The value of a JSON text. */
    public static Object parse(String text) throws SyntaxError {
        Json reader = new Json(text);
        reader.skipWhitespace();
        Object value = reader.value(0);
        reader.skipWhitespace();
        if (reader.at < text.length()) throw reader.error("Unexpected text after the value");
        return value;
    }

    /** The JSON text of a value made of maps, lists, strings, numbers, booleans and null. */
    public static String write(Object value) {
        StringBuilder out = new StringBuilder();
        write(value, out);
        return out.toString();
    }

    private Object value(int depth) throws SyntaxError {
        if (depth > MAX_DEPTH) throw error("Nested too deep");
        if (at >= text.length()) throw error("Unexpected end");
        char c = text.charAt(at);
        return switch (c) {
            case '{' -> object(depth);
            case '[' -> array(depth);
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> {
                if (c == '-' || (c >= '0' && c <= '9')) yield number();
                throw error("Unexpected character '" + c + "'");
            }
        };
    }

    private Map<String, Object> object(int depth) throws SyntaxError {
        Map<String, Object> object = new LinkedHashMap<>();
        at++; // {
        skipWhitespace();
        if (peek() == '}') {
            at++;
            return object;
        }
        while (true) {
            skipWhitespace();
            if (peek() != '"') throw error("Expected a string key");
            String key = string();
            skipWhitespace();
            expect(':');
            skipWhitespace();
            object.put(key, value(depth + 1)); // a repeated key: the last one counts, as in JavaScript
            skipWhitespace();
            if (peek() == ',') {
                at++;
            } else {
                expect('}');
                return object;
            }
        }
    }

    private List<Object> array(int depth) throws SyntaxError {
        List<Object> array = new ArrayList<>();
        at++; // [
        skipWhitespace();
        if (peek() == ']') {
            at++;
            return array;
        }
        while (true) {
            skipWhitespace();
            array.add(value(depth + 1));
            skipWhitespace();
            if (peek() == ',') {
                at++;
            } else {
                expect(']');
                return array;
            }
        }
    }

    private String string() throws SyntaxError {
        StringBuilder out = new StringBuilder();
        at++; // the opening quote
        while (true) {
            if (at >= text.length()) throw error("Unterminated string");
            char c = text.charAt(at++);
            if (c == '"') return out.toString();
            if (c < 0x20) throw error("Control character in a string");
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) throw error("Unterminated string");
            char escaped = text.charAt(at++);
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    int code = 0;
                    for (int end = at + 4; at < end; at++) {
                        // ASCII hex digits only: Character.digit also reads other scripts' digits.
                        int digit = peek() < 128 ? Character.digit(peek(), 16) : -1;
                        if (digit < 0) throw error("Invalid \\u escape");
                        code = code * 16 + digit;
                    }
                    out.append((char) code); // a surrogate pair comes as two escapes, each a char
                }
                default -> throw error("Invalid escape \\" + escaped);
            }
        }
    }

    private BigDecimal number() throws SyntaxError {
        int start = at;
        if (peek() == '-') at++;
        if (peek() == '0') {
            at++;
        } else if (!digits()) {
            throw error("Expected a digit");
        }
        if (peek() == '.') {
            at++;
            if (!digits()) throw error("Expected a digit after the decimal point");
        }
        if (peek() == 'e' || peek() == 'E') {
            at++;
            if (peek() == '+' || peek() == '-') at++;
            if (!digits()) throw error("Expected a digit in the exponent");
        }
        try {
            return new BigDecimal(text.substring(start, at));
        } catch (NumberFormatException e) {
            throw error("Number out of range"); // an exponent past what BigDecimal holds
        }
    }

    /** Skips one or more digits; false when there is none. */
    private boolean digits() {
        int start = at;
        while (peek() >= '0' && peek() <= '9') at++;
        return at > start;
    }

    private Object literal(String word, Object value) throws SyntaxError {
        if (!text.startsWith(word, at)) throw error("Unexpected word");
        at += word.length();
        return value;
    }

    private void expect(char c) throws SyntaxError {
        if (peek() != c) throw error("Expected '" + c + "'");
        at++;
    }

    /** The next character, or 0 at the end. */
    private char peek() {
        return at < text.length() ? text.charAt(at) : 0;
    }

    private void skipWhitespace() {
        while (peek() == ' ' || peek() == '\t' || peek() == '\n' || peek() == '\r') at++;
    }

    private SyntaxError error(String message) {
        return new SyntaxError(message, at);
    }

    private static void write(Object value, StringBuilder out) {
        if (value == null) {
            out.append("null");
        } else if (value instanceof String string) {
            writeString(string, out);
        } else if (value instanceof Boolean || value instanceof BigDecimal || value instanceof Integer || value instanceof Long) {
            out.append(value);
        } else if (value instanceof Map<?, ?> map) {
            out.append('{');
            String separator = "";
            for (Map.Entry<?, ?> entry : map.entrySet()) {
                out.append(separator);
                writeString(String.valueOf(entry.getKey()), out);
                out.append(':');
                write(entry.getValue(), out);
                separator = ",";
            }
            out.append('}');
        } else if (value instanceof List<?> list) {
            out.append('[');
            String separator = "";
            for (Object item : list) {
                out.append(separator);
                write(item, out);
                separator = ",";
            }
            out.append(']');
        } else {
            throw new IllegalArgumentException("Not a JSON value: " + value.getClass().getName());
        }
    }

    private static void writeString(String string, StringBuilder out) {
        out.append('"');
        for (int i = 0; i < string.length(); i++) {
            char c = string.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) out.append(String.format("\\u%04x", (int) c));
                    else out.append(c);
                }
            }
        }
        out.append('"');
    }
}
