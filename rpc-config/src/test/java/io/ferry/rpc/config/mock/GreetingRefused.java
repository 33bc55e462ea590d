package io.ferry.rpc.config.mock;

/** The service's own exception: a mock never answers a call that failed with it. */
public class GreetingRefused extends Exception {
    private static final long serialVersionUID = 1L;

    public GreetingRefused(String message) {
        super(message);
    }
}
