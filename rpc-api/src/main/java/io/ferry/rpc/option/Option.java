package io.ferry.rpc.option;

import java.time.Duration;
import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * One configuration option, declared once: its name, type, default, unit, valid range, the scopes where it may be
 * set, the Dubbo attribute it corresponds to, and one line of documentation. Every front end (builders,
 * annotations, files) checks values through it, so a wrong value gets the same message wherever it came from.
 *
 * @param <T> the option's type: {@code Integer}, {@code Long}, {@code Boolean}, {@code Duration}, {@code String} or
 *            an enum
 */
public final class Option<T> {
    /** What a credential is shown as, wherever values are shown. */
    public static final String MASK = "******";
    private final String name;
    private final Class<T> type;
    private final String defaultText;
    private final String unit;
    private final long min;
    private final long max;
    private final Set<Scope> scopes;
    private final String dubboName;
    private final String doc;
    private final T defaultValue;
    /** Names (of extensions) are matched without regard to case: kept in lower case. */
    private final boolean lowerCase;
    /** A credential: its value never appears in a text made for people (toString, logs, errors). */
    private final boolean secret;
    /** The longest duration an option takes: what a deadline in nanoseconds can hold, with room to add to it. */
    private static final Duration LONGEST = Duration.ofNanos(Long.MAX_VALUE / 4);

    private Option(String name, Class<T> type, String defaultText, T explicitDefault, boolean lowerCase, String unit,
                   long min, long max, Set<Scope> scopes, String dubboName, String doc, boolean secret) {
        this.name = name;
        this.lowerCase = lowerCase;
        this.secret = secret;
        this.type = type;
        this.defaultText = defaultText;
        this.unit = unit;
        this.min = min;
        this.max = max;
        this.scopes = Collections.unmodifiableSet(EnumSet.copyOf(scopes));
        this.dubboName = dubboName;
        this.doc = doc;
        this.defaultValue = explicitDefault != null ? explicitDefault : defaultOf(defaultText);
    }

    /**
     * The default as a value: the default text when it reads as one ({@code 1000}, {@code adaptive}, the
     * {@code 0} of {@code 0 (no limit)}); null when the layer below computes it ({@code cores}) or, for text
     * options, when there is none.
     */
    private T defaultOf(String text) {
        if (type == String.class) {
            return null;
        }
        try {
            return type.cast(convert(text.split(" ")[0], "", name));
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Starts declaring an option. */
    public static <T> Builder<T> of(String name, Class<T> type) {
        return new Builder<>(name, type);
    }

    public String name() {
        return name;
    }

    public Class<T> type() {
        return type;
    }

    /** The default as the documentation states it ("1000 ms", "cores", "none"). */
    public String defaultText() {
        return defaultText;
    }

    /** "ms", "bytes", or empty. */
    public String unit() {
        return unit;
    }

    public Set<Scope> scopes() {
        return scopes;
    }

    /** The Dubbo attribute of the same meaning, or empty when Dubbo has none. */
    public String dubboName() {
        return dubboName;
    }

    public String doc() {
        return doc;
    }

    /**
     * The option's name in files: the attribute in {@code ferry.xml} and the last part of a {@code ferry.properties}
     * key. Dubbo's where Dubbo has a plain attribute of that meaning (so a Dubbo file ports unchanged), else the
     * name the builders use.
     */
    public String fileName() {
        return dubboName.matches("[a-z]+(-[a-z]+)*") ? dubboName : name;
    }

    /** Whether the value is a credential, such as a password: never logged, printed or put in a message. */
    public boolean isSecret() {
        return secret;
    }

    /** A value as messages and {@code toString()} show it: {@link #MASK} for a secret, else as it reads. */
    public String show(Object value) {
        return secret && value != null ? MASK : String.valueOf(value);
    }

    /** The built-in default, or null when none applies or the transport computes it (see {@link #defaultText()}). */
    public T defaultValue() {
        return defaultValue;
    }

    /** The smallest valid value (milliseconds for a duration), or {@link Long#MIN_VALUE} for none. */
    public long min() {
        return min;
    }

    /** The largest valid value, or {@link Long#MAX_VALUE} for none. */
    public long max() {
        return max;
    }

    /** The valid range in words: "> 0", ">= 0", "1..1024", or empty for any value. */
    public String range() {
        if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
            return "";
        }
        if (max == Long.MAX_VALUE) {
            return min == 1 && type == Duration.class ? "> 0" : ">= " + min;
        }
        return min + ".." + max;
    }

    /**
     * Checks a value given at {@code where} (empty for a builder; "ferry.xml:12: &lt;reference id=\"g\"&gt;",
     * "@RpcService on com.acme.Greeter", ...) and returns it.
     *
     * @throws IllegalArgumentException naming the place, the option, the value and the range
     */
    public T check(T value, String where) {
        return check(value, where, name);
    }

    /** As {@link #check(Object, String)}, naming the option as the source spells it ({@code loadbalance}). */
    public T check(T value, String where, String spelled) {
        if (value == null) {
            throw invalid(where, spelled, "none", "a value");
        }
        if (lowerCase && value instanceof String text) {
            return type.cast(text.toLowerCase(java.util.Locale.ROOT));
        }
        long n;
        if (value instanceof Duration d && !d.isNegative() && d.compareTo(LONGEST) > 0) {
            // deadlines are kept in nanoseconds
            throw invalid(where, spelled, d.toMillis() + "ms", "at most " + LONGEST.toDays() + " days");
        }
        if (value instanceof Duration d) {
            n = d.isNegative() ? -1 : d.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0 ? Long.MAX_VALUE
                    : Math.max(d.toMillis(), d.isZero() ? 0 : 1);
        } else if (value instanceof Number number) {
            n = number.longValue();
        } else {
            return value;
        }
        if (n < min || n > max) {
            throw invalid(where, spelled, value instanceof Duration d ? d.toMillis() + "ms" : String.valueOf(value),
                    range());
        }
        return value;
    }

    /**
     * Reads a value as files and {@code -D} properties write it: durations in milliseconds as Dubbo has them
     * ({@code 1500}), or with a unit ({@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}); enums by their Dubbo names,
     * in any case; booleans as {@code true} or {@code false}. Then checks it.
     *
     * @throws IllegalArgumentException naming the place, the option, the text and what was expected
     */
    public T parse(String text, String where) {
        return parse(text, where, name);
    }

    /** As {@link #parse(String, String)}, naming the option as the source spells it ({@code loadbalance}). */
    public T parse(String text, String where, String spelled) {
        String t = text == null ? "" : text.trim();
        if (t.isEmpty()) {
            throw invalid(where, spelled, "''", "a value");
        }
        return check(type.cast(convert(t, where, spelled)), where, spelled);
    }

    private Object convert(String t, String where, String spelled) {
        try {
            if (type == Duration.class) {
                return duration(t);
            }
            if (type == Integer.class) {
                return Integer.valueOf(t);
            }
            if (type == Long.class) {
                return Long.valueOf(t);
            }
        } catch (NumberFormatException | ArithmeticException e) {
            boolean tooLarge = t.matches("\\+?[0-9]+\\s*[a-zA-Z]*");
            throw invalid(where, spelled, "'" + t + "'", tooLarge ? "a smaller number"
                    : type == Duration.class ? "milliseconds, or a number with ms, s, m or h" : "a whole number");
        }
        if (type == Boolean.class) {
            if (t.equalsIgnoreCase("true") || t.equalsIgnoreCase("false")) {
                return Boolean.valueOf(t);
            }
            throw invalid(where, spelled, "'" + t + "'", "true or false");
        }
        if (type.isEnum()) {
            StringBuilder names = new StringBuilder();
            for (T constant : type.getEnumConstants()) {
                String name = ((Enum<?>) constant).name();
                if (name.equalsIgnoreCase(t)) {
                    return constant;
                }
                names.append(names.length() == 0 ? "" : ", ").append(name.toLowerCase(java.util.Locale.ROOT));
            }
            throw invalid(where, spelled, "'" + t + "'", "one of " + names);
        }
        return t;
    }

    private static Duration duration(String t) {
        String lower = t.toLowerCase(java.util.Locale.ROOT);
        if (lower.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(lower.substring(0, lower.length() - 2).trim()));
        }
        long scale = switch (lower.charAt(lower.length() - 1)) {
            case 's' -> 1_000;
            case 'm' -> 60_000;
            case 'h' -> 3_600_000;
            default -> 1;
        };
        String number = scale == 1 ? lower : lower.substring(0, lower.length() - 1).trim();
        return Duration.ofMillis(Math.multiplyExact(Long.parseLong(number), scale));
    }

    private static IllegalArgumentException invalid(String where, String spelled, String value, String expected) {
        // the builders' wording (Validate), so a value is refused alike from every front end
        return new IllegalArgumentException((where.isEmpty() ? "" : where + ": ") + spelled + ": " + value
                + " (expected: " + expected + ")");
    }

    @Override
    public String toString() {
        return name;
    }

    /** Declares an option step by step; every option needs a default and at least one scope. */
    public static final class Builder<T> {
        private final String name;
        private final Class<T> type;
        private String defaultText = "none";
        private T defaultValue;
        private boolean lowerCase;
        private boolean secret;
        private String unit = "";
        private long min = Long.MIN_VALUE;
        private long max = Long.MAX_VALUE;
        private Set<Scope> scopes = EnumSet.noneOf(Scope.class);
        private String dubboName = "";
        private String doc = "";

        private Builder(String name, Class<T> type) {
            this.name = name;
            this.type = type;
            if (type == Duration.class) {
                unit = "ms";
            }
        }

        public Builder<T> defaultText(String text) {
            this.defaultText = text;
            return this;
        }

        /** A default that is a value as it is written (a text option's, such as a name): also its text. */
        public Builder<T> defaultValue(T value) {
            this.defaultValue = value;
            this.defaultText = String.valueOf(value);
            return this;
        }

        /** Values are names matched without regard to case, such as an extension's: kept in lower case. */
        public Builder<T> lowerCase() {
            this.lowerCase = true;
            return this;
        }

        /** A credential: never shown (see {@link Option#show}). */
        public Builder<T> secret() {
            this.secret = true;
            return this;
        }

        public Builder<T> unit(String unit) {
            this.unit = unit;
            return this;
        }

        /** Inclusive bounds; for a duration, in milliseconds, with any positive duration counting as at least 1. */
        public Builder<T> range(long min, long max) {
            this.min = min;
            this.max = max;
            return this;
        }

        public Builder<T> atLeast(long min) {
            return range(min, Long.MAX_VALUE);
        }

        public Builder<T> scopes(Scope first, Scope... rest) {
            this.scopes = EnumSet.of(first, rest);
            return this;
        }

        public Builder<T> dubbo(String attribute) {
            this.dubboName = attribute;
            return this;
        }

        public Builder<T> doc(String doc) {
            this.doc = doc;
            return this;
        }

        public Option<T> build() {
            if (scopes.isEmpty()) {
                throw new IllegalStateException(name + ": no scope");
            }
            return new Option<>(name, type, defaultText, defaultValue, lowerCase, unit, min, max, scopes, dubboName,
                    doc, secret);
        }
    }
}
