package io.ferry.rpc.remoting.internal.generic;

/**
 * A service's exception as a Dubbo 3 provider answers a generic call with it: Dubbo's
 * {@code com.alibaba.dubbo.rpc.service.GenericException}, carrying the original's class name and message, which
 * every Dubbo generic caller reads whether it has the original class or not. Written under Dubbo's class name
 * (see {@code ThrowableSerializer}); Ferry's generic callers read it back as {@code io.ferry.rpc.GenericException}.
 */
public final class GenericFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;
    /** The class a Dubbo 3.3 provider (with Dubbo 2's compatible API, as the {@code dubbo} jar has it) sends. */
    public static final String DUBBO_CLASS = "com.alibaba.dubbo.rpc.service.GenericException";
    /** The class of Dubbo 3's own API, which a provider without the compatible API sends. */
    public static final String DUBBO3_CLASS = "org.apache.dubbo.rpc.service.GenericException";

    private final String exceptionClass;
    private final String exceptionMessage;

    /** {@code original} as a generic caller sees it: its class, its message, and its stack trace. */
    public GenericFailure(Throwable original) {
        super(original.toString());
        this.exceptionClass = original.getClass().getName();
        this.exceptionMessage = original.getMessage();
        setStackTrace(original.getStackTrace());
    }

    public String exceptionClass() {
        return exceptionClass;
    }

    public String exceptionMessage() {
        return exceptionMessage;
    }
}
