package io.ferry.rpc.config.internal;

import io.ferry.rpc.spi.LogLimiter;
import io.ferry.rpc.spi.WireText;
import io.ferry.rpc.Filter;
import io.ferry.rpc.Invocation;
import io.ferry.rpc.Invoker;
import io.ferry.rpc.PeerIdentity;
import io.ferry.rpc.ProviderRefusal;
import io.ferry.rpc.Result;
import io.ferry.rpc.RpcContext;
import io.ferry.rpc.RpcStatus;
import io.ferry.rpc.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Who may call what: a call whose method (or service) has a {@link CallerRule} runs only when the identity the
 * caller's certificate proved on its mutual-TLS connection matches it; any other is refused, unrun, FORBIDDEN, and
 * logged with the caller's address and identity (at most 10 lines a second). Placed by Ferry right after the token
 * check, before every filter a list or a user adds: a refused call reaches nothing of the service.
 */
final class CallerCheck implements Filter {
    private static final Logger log = LoggerFactory.getLogger(CallerCheck.class);

    private final String service;
    private final Map<Method, CallerRule> rules;
    private final LogLimiter refusals;

    /** {@code rules}: each restricted method's rule; a method not in it is open to anyone. */
    CallerCheck(String service, Map<Method, CallerRule> rules, Ticker ticker) {
        this.service = service;
        this.rules = Map.copyOf(rules);
        this.refusals = new LogLimiter(10, ticker);
    }

    @Override
    public CompletableFuture<Result> invoke(Invocation invocation, Invoker next) {
        CallerRule rule = rules.get(invocation.method());
        if (rule == null) {
            return next.invoke(invocation);
        }
        PeerIdentity identity = RpcContext.current().peerIdentity().orElse(null);
        if (rule.allows(identity)) {
            return next.invoke(invocation);
        }
        // a certificate's names are the CA's to choose, control characters included: escaped before any log line
        String who = identity == null ? "a caller without a client certificate" : WireText.escape(identity.toString());
        long left = refusals.tryLog();
        if (left >= 0) {
            log.warn("refused {} from {}: {} is not among its callers ({}){}", invocation.description(),
                    RpcContext.current().remoteAddress(), who, rule,
                    left > 0 ? " (" + left + " more refusals not logged)" : "");
        }
        return CompletableFuture.failedFuture(new ProviderRefusal(RpcStatus.FORBIDDEN, RpcStatus.CALLER_REFUSED_PREFIX
                + service + "." + invocation.method().getName() + "() may not be called by " + who));
    }
}
