package io.ferry.rpc.config.internal;

import io.ferry.rpc.spi.LogLimiter;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Dubbo's token check on a provider: a call that does not carry the export's token as its {@code token} attachment
 * is refused, unrun, with the status and words a Dubbo provider answers (SERVICE_ERROR, {@code Invalid token!
 * Forbid invoke remote service ...}), so a Dubbo consumer reads the refusal as it would from Dubbo. It is the first
 * filter of the service's chain, placed by Ferry and not named in any filter list: nothing a filter list or a user
 * adds, not even the {@code executes} limit, sees a refused call, and none sees the token of a call let through.
 * Each refusal is logged with the caller's address, at most 10 lines a second; neither the log nor the answer ever
 * holds a token.
 */
final class TokenCheck implements Filter {
    static final String ATTACHMENT = "token";
    private static final Logger log = LoggerFactory.getLogger(TokenCheck.class);

    private final ProviderToken token;
    private final String service;
    private final String providerHost;
    private final LogLimiter refusals;

    /**
     * @param service      the service interface's name, as the refusal names it
     * @param providerHost the host this provider announces, as the refusal names it
     */
    TokenCheck(ProviderToken token, String service, String providerHost, Ticker ticker) {
        this.token = token;
        this.service = service;
        this.providerHost = providerHost;
        this.refusals = new LogLimiter(10, ticker);
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        Object sent = invocation.attachments().get(ATTACHMENT);
        if (token.matches(sent)) {
            return next.invoke(withoutToken(invocation));
        }
        SocketAddress from = RpcContext.current().remoteAddress(); // the connection's, filled before this filter
        String why = sent == null ? "the consumer sent no token" : "the consumer sent another token (not shown)";
        long left = refusals.tryLog();
        if (left >= 0) {
            log.warn("refused {} from {}: {}{}", invocation.description(), from, why,
                    left > 0 ? " (" + left + " more refusals not logged)" : "");
        }
        return CompletableFuture.failedFuture(new ProviderRefusal(RpcStatus.FORBIDDEN,
                RpcStatus.INVALID_TOKEN_PREFIX + "interface " + service + " method " + invocation.method().getName()
                        + "() from consumer " + host(from) + " to provider " + providerHost + ", " + why));
    }

    /**
     * The token has done its job: nothing after the check, such as a filter that logs attachments, gets to see it,
     * in the call or in {@link RpcContext#requestAttachments()} (a view of the same map, filled before this check).
     */
    private static Invocation withoutToken(Invocation invocation) {
        try {
            invocation.attachments().remove(ATTACHMENT);
            return invocation;
        } catch (UnsupportedOperationException fixed) {
            Map<String, Object> rest = new HashMap<>(invocation.attachments());
            rest.remove(ATTACHMENT);
            return invocation.withAttachments(rest);
        }
    }

    /** The caller's host, as Dubbo names it. */
    private static String host(SocketAddress address) {
        return address instanceof InetSocketAddress inet ? inet.getHostString() : String.valueOf(address);
    }
}
