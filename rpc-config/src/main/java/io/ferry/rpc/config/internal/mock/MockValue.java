package io.ferry.rpc.config.internal.mock;

import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.lang.reflect.TypeVariable;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.time.temporal.Temporal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/**
 * The value of {@code mock="return <value>"}, read for one method's return type the way Dubbo's {@code MockInvoker}
 * reads it, and checked when the reference is created rather than when a call fails:
 * <ul>
 *   <li>{@code null}: null (refused for a primitive); {@code empty}: the type's empty value (0, false, an empty
 *       string, array, list, set or map; for a class with a no-argument constructor, an instance whose unset fields
 *       are empty in turn, two levels deep; null for other interfaces);</li>
 *   <li>{@code "text"} or {@code 'text'}: the text, unquoted; for a {@code String} method any other text as it is;</li>
 *   <li>{@code true}, {@code false}, numbers ({@code 42}, {@code -1}, {@code 1.5}), enum constants by name, a
 *       {@code char} of one character, {@code BigInteger}, {@code BigDecimal}, {@code LocalDate},
 *       {@code LocalDateTime}, {@code LocalTime} in ISO form;</li>
 *   <li>JSON ({@code {"name":"x"}}, {@code [1,2]}; single quotes taken too) for maps, lists, sets, arrays and
 *       classes with a no-argument constructor, whose fields are set by name, converted to their declared types.</li>
 * </ul>
 * A value the type cannot take is refused with what it expects; Dubbo would only fail the call that needed it.
 * The method's own {@code CompletableFuture<V>} is answered with a {@code V}. Mutable values (lists, maps, arrays,
 * objects) are made afresh for every call, so that callers never share one.
 */
final class MockValue {
    /** How deep {@code empty} fills the fields of an object, as Dubbo's {@code ReflectUtils.getEmptyObject}. */
    private static final int EMPTY_DEPTH = 2;

    private MockValue() {
    }

    /**
     * The value {@code text} means for {@code type}.
     *
     * @throws IllegalArgumentException with what {@code type} expects (a text to put after "expected: ")
     */
    static Supplier<Object> parse(String text, Type type) {
        Class<?> raw = raw(type);
        if (text.equals("empty")) {
            Object probe = empty(raw, 0);
            return raw.isPrimitive() || probe == null || immutable(probe) ? () -> probe : () -> empty(raw, 0);
        }
        if (text.equals("null")) {
            if (raw.isPrimitive() && raw != void.class) {
                throw new IllegalArgumentException("a value of " + raw.getName() + ": it cannot be null; "
                        + "return empty gives " + empty(raw, 0));
            }
            return () -> null;
        }
        Object parsed = read(text, raw);
        Object first = convert(parsed, type);
        return immutable(first) ? () -> first : () -> convert(parsed, type);
    }

    /** The text as Dubbo reads it before converting: quoted text, a String method's text, JSON, else the text. */
    private static Object read(String text, Class<?> raw) {
        boolean quoted = text.length() >= 2 && (text.startsWith("\"") && text.endsWith("\"")
                || text.startsWith("'") && text.endsWith("'"));
        if (quoted) {
            return text.substring(1, text.length() - 1);
        }
        if (raw == String.class) {
            return text;
        }
        if (text.equals("true") || text.equals("false")) {
            return Boolean.valueOf(text);
        }
        if (text.startsWith("{") || text.startsWith("[")) {
            return new Json(text).document();
        }
        return text;
    }

    private static boolean immutable(Object value) {
        return value == null || value instanceof String || value instanceof Number || value instanceof Boolean
                || value instanceof Character || value instanceof Enum<?> || value instanceof Temporal;
    }

    static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return raw(p.getRawType());
        }
        if (type instanceof GenericArrayType a) {
            return Array.newInstance(raw(a.getGenericComponentType()), 0).getClass();
        }
        if (type instanceof WildcardType w) {
            return raw(w.getUpperBounds()[0]);
        }
        if (type instanceof TypeVariable<?> v) {
            return raw(v.getBounds()[0]);
        }
        return Object.class;
    }

    /** The {@code i}th type argument of a parameterized type, or Object. */
    private static Type argument(Type type, int i) {
        return type instanceof ParameterizedType p && p.getActualTypeArguments().length > i
                ? p.getActualTypeArguments()[i] : Object.class;
    }

    // ---- empty, after Dubbo's ReflectUtils.getEmptyObject

    private static Object empty(Class<?> type, int depth) {
        if (depth > EMPTY_DEPTH) {
            return null;
        }
        Object simple = emptySimple(type);
        if (simple != null || type.isPrimitive() || type == void.class) {
            return simple;
        }
        if (type.isArray()) {
            return Array.newInstance(type.getComponentType(), 0);
        }
        if (type.isAssignableFrom(ArrayList.class)) {
            return new ArrayList<>(0);
        }
        if (type.isAssignableFrom(HashSet.class)) {
            return new HashSet<>(0);
        }
        if (type.isAssignableFrom(HashMap.class)) {
            return new HashMap<>(0);
        }
        if (type.isInterface() || type.isEnum() || Modifier.isAbstract(type.getModifiers())) {
            return null;
        }
        Object instance = instantiate(type, false);
        if (instance == null) {
            return null;
        }
        for (Field field : fields(type)) {
            try {
                if (!field.getType().isPrimitive() && field.get(instance) == null) {
                    Object value = empty(field.getType(), depth + 1);
                    if (value != null) {
                        field.set(instance, value);
                    }
                }
            } catch (IllegalAccessException | RuntimeException e) {
                // a field we may not set keeps its value, as in Dubbo
            }
        }
        return instance;
    }

    private static Object emptySimple(Class<?> type) {
        if (type == boolean.class || type == Boolean.class) {
            return false;
        }
        if (type == char.class || type == Character.class) {
            return '\0';
        }
        if (type == byte.class || type == Byte.class) {
            return (byte) 0;
        }
        if (type == short.class || type == Short.class) {
            return (short) 0;
        }
        if (type == int.class || type == Integer.class) {
            return 0;
        }
        if (type == long.class || type == Long.class) {
            return 0L;
        }
        if (type == float.class || type == Float.class) {
            return 0f;
        }
        if (type == double.class || type == Double.class) {
            return 0d;
        }
        return type == String.class ? "" : null;
    }

    // ---- converting a read value to the declared type

    private static Object convert(Object value, Type type) {
        Class<?> raw = raw(type);
        if (value == null) {
            if (raw.isPrimitive()) {
                throw new IllegalArgumentException("a value of " + raw.getName() + ", not null");
            }
            return null;
        }
        if (raw == Object.class) {
            return plain(value);
        }
        Object simple = convertSimple(value, raw);
        if (simple != null) {
            return simple;
        }
        if (raw.isArray() && value instanceof List<?> list) {
            Object array = Array.newInstance(raw.getComponentType(), list.size());
            Type component = type instanceof GenericArrayType g ? g.getGenericComponentType() : raw.getComponentType();
            for (int i = 0; i < list.size(); i++) {
                Array.set(array, i, convert(list.get(i), component));
            }
            return array;
        }
        if (Collection.class.isAssignableFrom(raw) && value instanceof List<?> list) {
            Collection<Object> out = collection(raw);
            for (Object element : list) {
                out.add(convert(element, argument(type, 0)));
            }
            return out;
        }
        if (Map.class.isAssignableFrom(raw) && value instanceof Map<?, ?> map) {
            if (!raw.isAssignableFrom(LinkedHashMap.class)) {
                throw new IllegalArgumentException("a Map type that LinkedHashMap is (not " + raw.getName() + ")");
            }
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(convert(k, argument(type, 0)), convert(v, argument(type, 1))));
            return out;
        }
        if (value instanceof Map<?, ?> map && !raw.isInterface() && !raw.isEnum() && !raw.isPrimitive()) {
            return object(map, raw);
        }
        throw new IllegalArgumentException(expected(raw) + ", not " + shown(value));
    }

    /** A value for an {@code Object} method: numbers as JSON libraries read them (Integer, Long, else Double). */
    private static Object plain(Object value) {
        if (value instanceof String s && s.matches("-?[0-9]+(\\.[0-9]+)?([eE][-+]?[0-9]+)?")) {
            value = new BigDecimal(s);
        }
        if (value instanceof BigDecimal d) {
            try {
                long n = d.longValueExact();
                return n == (int) n ? (Object) (int) n : (Object) n;
            } catch (ArithmeticException e) {
                return d.doubleValue();
            }
        }
        if (value instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(plain(v)));
            return out;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> out = new LinkedHashMap<>();
            map.forEach((k, v) -> out.put(k, plain(v)));
            return out;
        }
        return value;
    }

    /** A scalar of {@code raw} from text, a number or a boolean; null when {@code raw} is not a scalar type. */
    private static Object convertSimple(Object value, Class<?> raw) {
        if (raw == String.class) {
            if (value instanceof String || value instanceof Boolean || value instanceof Number) {
                return value instanceof BigDecimal d ? d.toPlainString() : value.toString();
            }
            throw new IllegalArgumentException("a text, not " + shown(value));
        }
        if (raw == boolean.class || raw == Boolean.class) {
            if (value instanceof Boolean) {
                return value;
            }
            throw new IllegalArgumentException("true or false, not " + shown(value));
        }
        if (raw == char.class || raw == Character.class) {
            if (value instanceof String s && s.length() == 1) {
                return s.charAt(0);
            }
            throw new IllegalArgumentException("one character, not " + shown(value));
        }
        if (isNumber(raw)) {
            return number(value, raw);
        }
        if (raw.isEnum()) {
            return constant(value, raw);
        }
        if (raw == LocalDate.class || raw == LocalDateTime.class || raw == LocalTime.class) {
            return time(value, raw);
        }
        return null;
    }

    private static boolean isNumber(Class<?> raw) {
        return raw == int.class || raw == Integer.class || raw == long.class || raw == Long.class
                || raw == short.class || raw == Short.class || raw == byte.class || raw == Byte.class
                || raw == double.class || raw == Double.class || raw == float.class || raw == Float.class
                || raw == BigInteger.class || raw == BigDecimal.class;
    }

    private static Object number(Object value, Class<?> raw) {
        BigDecimal d;
        try {
            d = value instanceof BigDecimal b ? b : value instanceof String s ? new BigDecimal(s.strip()) : null;
        } catch (NumberFormatException e) {
            d = null;
        }
        if (d == null) {
            throw new IllegalArgumentException(expected(raw) + ", not " + shown(value));
        }
        try {
            if (raw == int.class || raw == Integer.class) {
                return d.intValueExact();
            }
            if (raw == long.class || raw == Long.class) {
                return d.longValueExact();
            }
            if (raw == short.class || raw == Short.class) {
                return d.shortValueExact();
            }
            if (raw == byte.class || raw == Byte.class) {
                return d.byteValueExact();
            }
            if (raw == BigInteger.class) {
                return d.toBigIntegerExact();
            }
        } catch (ArithmeticException e) {
            throw new IllegalArgumentException(expected(raw) + ", not " + shown(value));
        }
        if (raw == double.class || raw == Double.class) {
            return d.doubleValue();
        }
        return raw == BigDecimal.class ? d : (Object) d.floatValue();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object constant(Object value, Class<?> raw) {
        if (value instanceof String s) {
            for (Object c : raw.getEnumConstants()) {
                if (((Enum) c).name().equals(s)) {
                    return c;
                }
            }
        }
        throw new IllegalArgumentException("one of " + Arrays.toString(raw.getEnumConstants()) + ", not "
                + shown(value));
    }

    private static Object time(Object value, Class<?> raw) {
        try {
            if (value instanceof String s) {
                return raw == LocalDate.class ? LocalDate.parse(s) : raw == LocalTime.class ? LocalTime.parse(s)
                        : LocalDateTime.parse(s);
            }
        } catch (DateTimeParseException e) {
            // refused below
        }
        throw new IllegalArgumentException("a " + raw.getSimpleName() + " in ISO form (2024-01-31, "
                + "2024-01-31T10:15:30, 10:15:30), not " + shown(value));
    }

    private static Collection<Object> collection(Class<?> raw) {
        if (raw.isAssignableFrom(ArrayList.class)) {
            return new ArrayList<>();
        }
        if (raw.isAssignableFrom(LinkedHashSet.class)) {
            return new LinkedHashSet<>();
        }
        throw new IllegalArgumentException("a collection type that ArrayList or LinkedHashSet is (not "
                + raw.getName() + ")");
    }

    /** An object from a JSON object: its no-argument constructor, then each field by name. */
    private static Object object(Map<?, ?> map, Class<?> declared) {
        Class<?> type = declared;
        Object named = map.get("class"); // Dubbo's generic maps name their class; a subtype of the declared one
        if (named instanceof String className) {
            try {
                Class<?> c = Class.forName(className, false, declared.getClassLoader());
                if (!declared.isAssignableFrom(c)) {
                    throw new IllegalArgumentException("a " + declared.getName() + ", not a " + className);
                }
                type = c;
            } catch (ClassNotFoundException e) {
                throw new IllegalArgumentException("a class on the class path, not \"class\": \"" + className
                        + "\"");
            }
        }
        Object instance = instantiate(type, true);
        Map<String, Field> fields = new HashMap<>();
        for (Field field : fields(type)) {
            fields.putIfAbsent(field.getName(), field);
        }
        for (Map.Entry<?, ?> entry : map.entrySet()) {
            if (entry.getKey().equals("class")) {
                continue;
            }
            Field field = fields.get(String.valueOf(entry.getKey()));
            if (field == null) {
                throw new IllegalArgumentException("fields of " + type.getName() + " " + fields.keySet() + ", not "
                        + entry.getKey());
            }
            try {
                field.set(instance, convert(entry.getValue(), field.getGenericType()));
            } catch (IllegalAccessException e) {
                throw new IllegalArgumentException("a field of " + type.getName() + " that can be set, not "
                        + field.getName());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(type.getSimpleName() + "." + field.getName() + ": "
                        + e.getMessage(), e);
            }
        }
        return instance;
    }

    private static Object instantiate(Class<?> type, boolean required) {
        try {
            Constructor<?> constructor = type.getDeclaredConstructor();
            constructor.setAccessible(true);
            return constructor.newInstance();
        } catch (ReflectiveOperationException | RuntimeException e) {
            if (required) {
                throw new IllegalArgumentException("a class with a no-argument constructor (" + type.getName()
                        + " has none Ferry can call)");
            }
            return null;
        }
    }

    /** The instance fields of a class and its superclasses, made accessible where the module system allows. */
    private static List<Field> fields(Class<?> type) {
        List<Field> fields = new ArrayList<>();
        for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int m = field.getModifiers();
                if (!Modifier.isStatic(m) && !Modifier.isFinal(m) && !field.isSynthetic() && field.trySetAccessible()) {
                    fields.add(field);
                }
            }
        }
        return fields;
    }

    private static String expected(Class<?> raw) {
        if (raw == BigDecimal.class || raw == double.class || raw == Double.class || raw == float.class
                || raw == Float.class) {
            return "a number";
        }
        if (isNumber(raw)) {
            return "a whole number that fits " + raw.getSimpleName();
        }
        return "a value of " + raw.getName() + " (text, true or false, a number, or JSON)";
    }

    private static String shown(Object value) {
        if (value instanceof Map<?, ?>) {
            return "a JSON object";
        }
        if (value instanceof List<?>) {
            return "a JSON array";
        }
        return value instanceof String ? "'" + value + "'" : String.valueOf(value);
    }

    /**
     * Just enough JSON for a mock value: objects (to {@code LinkedHashMap}), arrays (to {@code ArrayList}), strings
     * in double or single quotes, numbers (to {@code BigDecimal}), true, false and null.
     */
    private static final class Json {
        private final String text;
        private int at;

        Json(String text) {
            this.text = text;
        }

        Object document() {
            Object value = value();
            space();
            if (at != text.length()) {
                throw error("the end of the JSON value");
            }
            return value;
        }

        private Object value() {
            space();
            if (at >= text.length()) {
                throw error("a JSON value");
            }
            char c = text.charAt(at);
            if (c == '{') {
                return object();
            }
            if (c == '[') {
                return array();
            }
            if (c == '"' || c == '\'') {
                return string();
            }
            return word();
        }

        private Map<String, Object> object() {
            Map<String, Object> map = new LinkedHashMap<>();
            at++;
            space();
            if (peek('}')) {
                return map;
            }
            do {
                space();
                if (at >= text.length() || (text.charAt(at) != '"' && text.charAt(at) != '\'')) {
                    throw error("a quoted name");
                }
                String key = string();
                space();
                expect(':');
                map.put(key, value());
                space();
            } while (peek(','));
            expect('}');
            return map;
        }

        private List<Object> array() {
            List<Object> list = new ArrayList<>();
            at++;
            space();
            if (peek(']')) {
                return list;
            }
            do {
                list.add(value());
                space();
            } while (peek(','));
            expect(']');
            return list;
        }

        private String string() {
            char quote = text.charAt(at++);
            StringBuilder sb = new StringBuilder();
            while (at < text.length() && text.charAt(at) != quote) {
                char c = text.charAt(at++);
                if (c == '\\' && at < text.length()) {
                    char e = text.charAt(at++);
                    switch (e) {
                        case 'n' -> sb.append('\n');
                        case 't' -> sb.append('\t');
                        case 'r' -> sb.append('\r');
                        case 'b' -> sb.append('\b');
                        case 'f' -> sb.append('\f');
                        case 'u' -> {
                            if (at + 4 > text.length()) {
                                throw error("four hex digits");
                            }
                            sb.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                            at += 4;
                        }
                        default -> sb.append(e);
                    }
                } else {
                    sb.append(c);
                }
            }
            expect(quote);
            return sb.toString();
        }

        private Object word() {
            int start = at;
            while (at < text.length() && "{}[],: \t\r\n".indexOf(text.charAt(at)) < 0) {
                at++;
            }
            String word = text.substring(start, at);
            switch (word) {
                case "true":
                    return Boolean.TRUE;
                case "false":
                    return Boolean.FALSE;
                case "null":
                    return null;
                default:
                    try {
                        return new BigDecimal(word);
                    } catch (NumberFormatException e) {
                        at = start;
                        throw error("a JSON value");
                    }
            }
        }

        private void space() {
            while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
                at++;
            }
        }

        private boolean peek(char c) {
            if (at < text.length() && text.charAt(at) == c) {
                at++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!peek(c)) {
                throw error("'" + c + "'");
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException("JSON with " + what + " at character " + (at + 1) + " of " + text);
        }
    }
}
