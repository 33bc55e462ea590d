package io.ferry.rpc.remoting.internal.server;

import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.RpcException;
import io.ferry.rpc.Ticker;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.log.PeerLog;

import java.net.SocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Makes a service's failure one the consumer can receive, and reports failures the signature does not declare.
 * The consumer allows the same classes as this service (both derive them from the interface), so an exception
 * whose class, causes and suppressed exceptions are all allowed goes as it is; otherwise it goes as a
 * RuntimeException carrying the class name, message and stack, with its causes treated the same way, since the
 * consumer would refuse the whole answer for one class its signatures never mention. Refusals pass unchanged.
 */
final class ExceptionSanitizer implements Filter {
    /** Shared by every server of the process, hence a constant, on the system ticker. */
    private static final PeerLog UNDECLARED = new PeerLog(ExceptionSanitizer.class, Ticker.system());
    private static final int MAX_CAUSES = 16;

    private final AllowedClasses allowed;

    ExceptionSanitizer(AllowedClasses allowed) {
        this.allowed = allowed;
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        CompletableFuture<Result> result = Invokers.start(next, invocation);
        if (result.isDone() && !result.isCompletedExceptionally()) {
            return result; // the common case: nothing to add
        }
        SocketAddress from = RpcContext.current().remoteAddress(); // still the call's: its context filter is outside
        return result.handle((value, error) -> {
            if (error == null) {
                return value;
            }
            Throwable thrown = Invokers.unwrap(error);
            if (thrown instanceof ProviderRefusal) {
                throw new CompletionException(thrown);
            }
            reportIfUndeclared(invocation, thrown, from);
            throw new CompletionException(deliverable(thrown));
        });
    }

    /**
     * Dubbo operators expect a line for a service failing with something its signature does not declare (a
     * runtime exception or an Error): logged with the class names only, at most 10 lines a second.
     */
    private static void reportIfUndeclared(Invocation invocation, Throwable thrown, SocketAddress from) {
        if (thrown instanceof RpcException || declared(invocation, thrown)) {
            return;
        }
        if (thrown instanceof Error) {
            UNDECLARED.error("{} failed with {} (a call from {})", invocation.description(),
                    thrown.getClass().getName(), from, thrown);
        } else {
            UNDECLARED.warn("{} threw {}, which its signature does not declare (a call from {})",
                    invocation.description(), thrown.getClass().getName(), from, thrown);
        }
    }

    private static boolean declared(Invocation invocation, Throwable thrown) {
        for (Class<?> type : invocation.method().getExceptionTypes()) {
            if (type.isInstance(thrown)) {
                return true;
            }
        }
        return false;
    }

    Throwable deliverable(Throwable t) {
        return allowedThroughout(t, 0) ? t : replaced(t, 0);
    }

    private boolean allowedThroughout(Throwable t, int depth) {
        if (t == null) {
            return true;
        }
        if (depth > MAX_CAUSES || !allowed.allows(t.getClass().getName())) {
            return false;
        }
        for (Throwable s : t.getSuppressed()) {
            if (!allowedThroughout(s, depth + 1)) {
                return false;
            }
        }
        return t.getCause() == t || allowedThroughout(t.getCause(), depth + 1);
    }

    private Throwable replaced(Throwable t, int depth) {
        RuntimeException copy = new RuntimeException(t.getClass().getName() + ": " + t.getMessage());
        copy.setStackTrace(t.getStackTrace());
        Throwable cause = t.getCause();
        if (cause != null && cause != t && depth < MAX_CAUSES) {
            copy.initCause(allowedThroughout(cause, depth + 1) ? cause : replaced(cause, depth + 1));
        }
        return copy;
    }
}
