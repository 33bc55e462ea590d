package io.ferry.rpc.remoting.internal.log;

import io.ferry.rpc.spi.LogLimiter;
import io.ferry.rpc.spi.WireText;
import io.ferry.rpc.Ticker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Log lines whose frequency a remote peer controls (a refused request, a bad frame, a connection closed on an
 * error): at most {@value #PER_SECOND} a second for each instance, one instance per kind of line, so that a
 * flooding peer cannot flood the log. The lines left out are counted, and the next line let through ends with how
 * many ({@code "(41 more like this not logged)"}). String arguments are escaped ({@link WireText}): they often
 * quote the peer. A level that is off costs one check and counts nothing. Thread-safe.
 */
public final class PeerLog {
    /** Lines a second for one kind. */
    public static final int PER_SECOND = 10;

    private final Logger log;
    private final LogLimiter limiter;

    /** Lines of {@code owner}'s logger, their seconds on {@code ticker}. */
    public PeerLog(Class<?> owner, Ticker ticker) {
        this(LoggerFactory.getLogger(owner), PER_SECOND, ticker);
    }

    PeerLog(Logger log, int perSecond, Ticker ticker) {
        this.log = log;
        this.limiter = new LogLimiter(perSecond, ticker);
    }

    /** An slf4j format and its arguments; a trailing Throwable is printed with its stack, as slf4j does. */
    public void error(String format, Object... arguments) {
        if (log.isErrorEnabled()) {
            long left = limiter.tryLog();
            if (left >= 0) {
                log.error(format(format, left), arguments(arguments, left));
            }
        }
    }

    public void warn(String format, Object... arguments) {
        if (log.isWarnEnabled()) {
            long left = limiter.tryLog();
            if (left >= 0) {
                log.warn(format(format, left), arguments(arguments, left));
            }
        }
    }

    public void info(String format, Object... arguments) {
        if (log.isInfoEnabled()) {
            long left = limiter.tryLog();
            if (left >= 0) {
                log.info(format(format, left), arguments(arguments, left));
            }
        }
    }

    public void debug(String format, Object... arguments) {
        if (log.isDebugEnabled()) {
            long left = limiter.tryLog();
            if (left >= 0) {
                log.debug(format(format, left), arguments(arguments, left));
            }
        }
    }

    private static String format(String format, long left) {
        return left == 0 ? format : format + " ({} more like this not logged)";
    }

    /** The arguments with strings escaped, and the count of lines left out before a trailing Throwable. */
    private static Object[] arguments(Object[] arguments, long left) {
        int n = arguments.length;
        boolean throwable = n > 0 && arguments[n - 1] instanceof Throwable;
        Object[] out = new Object[left == 0 ? n : n + 1];
        int plain = throwable ? n - 1 : n;
        for (int i = 0; i < plain; i++) {
            out[i] = arguments[i] instanceof CharSequence text ? WireText.escape(text.toString()) : arguments[i];
        }
        if (left > 0) {
            out[plain] = left;
        }
        if (throwable) {
            out[out.length - 1] = arguments[n - 1];
        }
        return out;
    }
}
