package io.ferry.rpc.config;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.config.option.Options;
import io.ferry.rpc.option.Scope;
import io.ferry.rpc.config.option.Settings;

import java.time.Duration;
import java.util.Objects;

/**
 * Settings of one method of a reference or a service, by method name (they apply to every overload of that name).
 * What is not set here comes from the method's annotation, then the reference or service, then the consumer or
 * provider. On a reference: {@code timeout}, {@code retries}, {@code actives}, {@code loadbalance}, {@code oneway}
 * (void methods only), {@code idempotent} (failover may repeat a call whose connection was lost mid-call),
 * {@code mock}. On a service: {@code timeout} (the provider's slow-call budget), {@code executes}, and
 * {@code timeout}, {@code retries}, {@code loadbalance} and {@code actives} for its consumers, written into its
 * registry URL as {@code <method>.<name>} (theirs win).
 */
public final class MethodConfig {
    private final String name;
    private final Settings settings;

    private MethodConfig(String name, Settings settings) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("method.name: '" + name + "' (expected: a method name)");
        }
        this.name = name;
        this.settings = settings;
    }

    /**
     * @param timeout    null keeps the reference's or service's
     * @param oneway     null keeps the annotation's
     * @param idempotent null keeps the annotation's
     */
    public MethodConfig(String name, Duration timeout, Boolean oneway, Boolean idempotent) {
        this(name, settingsOf(name, timeout, oneway, idempotent));
    }

    public MethodConfig(String name, Duration timeout, Boolean oneway) {
        this(name, timeout, oneway, null);
    }

    private static Settings settingsOf(String name, Duration timeout, Boolean oneway, Boolean idempotent) {
        Builder b = new Builder(name);
        if (timeout != null) {
            b.timeout(timeout);
        }
        if (oneway != null) {
            b.oneway(oneway);
        }
        if (idempotent != null) {
            b.idempotent(idempotent);
        }
        return b.settings;
    }

    /** A method config holding {@code settings} (already checked), for a bootstrap merging sources. */
    static MethodConfig of(String name, Settings settings) {
        return new MethodConfig(name, settings.copy());
    }

    public static Builder builder(String name) {
        return new Builder(name);
    }

    public static MethodConfig timeout(String name, Duration timeout) {
        return new MethodConfig(name, timeout, null);
    }

    public static MethodConfig oneway(String name) {
        return new MethodConfig(name, null, Boolean.TRUE);
    }

    public static MethodConfig idempotent(String name) {
        return new MethodConfig(name, null, null, Boolean.TRUE);
    }

    public String name() {
        return name;
    }

    /** The options set for this method, each with where it was set. */
    public Settings settings() {
        return settings.copy();
    }

    /** "file:line: " where a file or -D set this method, else empty: the prefix of messages about it. */
    String where() {
        for (Option<?> option : settings.options()) {
            String where = settings.setting(option).where();
            if (!where.isEmpty() && !where.startsWith("method ")) {
                return where + ": ";
            }
        }
        return "";
    }

    /** Null when not set here. */
    public Duration timeout() {
        return settings.get(Options.TIMEOUT);
    }

    /** Null when not set here. */
    public Boolean oneway() {
        return settings.get(Options.ONEWAY);
    }

    /** Null when not set here. */
    public Boolean idempotent() {
        return settings.get(Options.IDEMPOTENT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MethodConfig other && name.equals(other.name)
                && settings.values().equals(other.settings.values());
    }

    @Override
    public int hashCode() {
        return Objects.hash(name, settings.values());
    }

    @Override
    public String toString() {
        return "method " + name + " " + settings.values();
    }

    public static final class Builder {
        private final String name;
        private final Settings settings = new Settings();

        private Builder(String name) {
            this.name = name;
        }

        /** Sets any option of the method scope; the typed setters below are shorthands for it. */
        public <V> Builder set(Option<V> option, V value) {
            return set(option, value, "");
        }

        /** As {@link #set(Option, Object)}, remembering where the value came from (a file and line). */
        public <V> Builder set(Option<V> option, V value, String where) {
            settings.checked(Scope.METHOD, option, value, where.isEmpty() ? "method " + name : where);
            return this;
        }

        public Builder timeout(Duration timeout) {
            return set(Options.TIMEOUT, timeout);
        }

        public Builder retries(int retries) {
            return set(Options.RETRIES, retries);
        }

        public Builder actives(int actives) {
            return set(Options.ACTIVES, actives);
        }

        /** The balancer of this method's calls, by name ({@code roundrobin}, ...), over the reference's. */
        public Builder loadBalance(String name) {
            return set(Options.LOAD_BALANCE, name);
        }

        /** Who may call this method, replacing its service's {@code callers} (see {@code ServiceConfig.Builder}). */
        public Builder callers(String callers) {
            return set(Options.CALLERS, callers);
        }

        public Builder executes(int executes) {
            return set(Options.EXECUTES, executes);
        }

        public Builder oneway(boolean oneway) {
            return set(Options.ONEWAY, oneway);
        }

        /**
         * True: calls of methods that do not return a CompletableFuture return at once (null, 0 or false), and
         * {@code RpcContext.current().future()} is their outcome; Dubbo's {@code async}. Default false.
         */
        public Builder async(boolean async) {
            return set(Options.ASYNC, async);
        }

        public Builder idempotent(boolean idempotent) {
            return set(Options.IDEMPOTENT, idempotent);
        }

        /** Dubbo's {@code mock} for this method of a reference, over the reference's (see its builder). */
        public Builder mock(String mock) {
            return set(Options.MOCK, mock);
        }

        public MethodConfig build() {
            return new MethodConfig(name, settings.copy());
        }
    }
}
