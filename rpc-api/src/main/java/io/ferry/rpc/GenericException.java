package io.ferry.rpc;

import io.ferry.rpc.spi.WireText;

/**
 * A service's exception as a generic caller sees it: the name of its class and its message, as Dubbo's
 * {@code GenericException} carries them. A provider answers a generic call's exception this way (Ferry as Dubbo 3
 * does), so the caller needs none of the service's classes; the original's cause and stack trace are not rebuilt.
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
        // both come from the peer: shown escaped, so that a message cannot forge a log line
        super(WireText.escape(exceptionClass) + (exceptionMessage == null ? "" : ": "
                + WireText.escape(exceptionMessage)));
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
