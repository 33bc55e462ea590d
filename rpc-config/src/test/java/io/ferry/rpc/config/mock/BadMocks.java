package io.ferry.rpc.config.mock;

/** Mock and stub classes that are wrong, each in one way. */
public final class BadMocks {
    private BadMocks() {
    }

    /** Does not implement {@link Greeting}. */
    public static class NotAGreeting {
        public NotAGreeting() {
        }
    }

    /** Implements it, but has no no-argument constructor. */
    public static class WithoutDefaultConstructor extends GreetingMock {
        public WithoutDefaultConstructor(String unused) {
        }
    }

    /** A stub without the constructor taking the reference. */
    public static class StubWithoutConstructor extends GreetingMock {
    }

    /** A stub whose constructor fails. */
    public static class ThrowingStub extends GreetingMock {
        public ThrowingStub(Greeting remote) {
            throw new IllegalStateException("not today");
        }
    }

    /** An exception without a constructor taking its message. */
    public static class Mute extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }
}
