package merchant;

import java.util.Map;

/** The service's answer to a request it did not do, an RFC 9457 problem: branch on {@link #code()}. */
public final class PayinProblem extends Exception {
    private final int status;
    private final String code;
    private final String existingId;

    PayinProblem(int status, Map<?, ?> problem, String text) {
        super(status + " " + (problem.get("code") instanceof String code ? code + ": " + problem.get("detail") : text));
        this.status = status;
        this.code = problem.get("code") instanceof String code ? code : "unexpected_answer";
        this.existingId = problem.get("existing_id") instanceof String id ? id : null;
    }

    public int status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** With the code counterparty_exists: the counterparty that has this email and phone number. */
    public String existingId() {
        return existingId;
    }
}
