package io.ferry.rpc;

import java.util.Map;

/**
 * What a successful call returns: the method's value (null for void and one-way calls) and the attachments the
 * provider sent back with it. Failures complete the invoker's future exceptionally instead.
 */
public record Result(Object value, Map<String, Object> attachments) {
    private static final Result EMPTY = new Result(null, Map.of());

    public Result {
        attachments = attachments == null ? Map.of() : attachments;
    }

    /** A value with no attachments. */
    public static Result of(Object value) {
        return value == null ? EMPTY : new Result(value, Map.of());
    }

    /** No value and no attachments: a void method, a one-way call once written. */
    public static Result empty() {
        return EMPTY;
    }
}
