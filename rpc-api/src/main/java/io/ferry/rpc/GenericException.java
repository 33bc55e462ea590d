package io.ferry.rpc;

import io.ferry.rpc.spi.WireText;

/**
 * A provider's exception as a generic caller sees it: the class's name and the message, as Dubbo's
 * {@code GenericException} carries them. When the exception's own class is not one this side may read, that is all
 * there is (its cause and stack trace are not rebuilt); a checked exception this side could read, which
 * {@link GenericService#$invoke} cannot declare, is the cause.
 */
public class GenericException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String exceptionClass;
    private final String exceptionMessage;

    /**
     * @param exceptionClass   the fully qualified name of the provider's exception class
     * @param exceptionMessage its message, or null
     */
    public GenericException(String exceptionClass, String exceptionMessage) {
        this(exceptionClass, exceptionMessage, null);
    }

    /** As {@link #GenericException(String, String)}, with the provider's exception itself as the cause. */
    public GenericException(String exceptionClass, String exceptionMessage, Throwable cause) {
        // both come from the peer: shown escaped, so that a message cannot forge a log line
        super(WireText.escape(exceptionClass) + (exceptionMessage == null ? "" : ": "
                + WireText.escape(exceptionMessage)), cause);
        this.exceptionClass = exceptionClass;
        this.exceptionMessage = exceptionMessage;
    }

    /** The fully qualified name of the provider's exception class. */
    public String getExceptionClass() {
        return exceptionClass;
    }

    /** The provider's exception message, or null. */
    public String getExceptionMessage() {
        return exceptionMessage;
    }
}
