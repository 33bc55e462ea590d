package io.ferry.rpc.remoting.internal.generic;

import com.alibaba.com.caucho.hessian.io.HessianProtocolException;
import io.ferry.rpc.remoting.internal.serialize.AllowedClasses;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;
import io.ferry.rpc.remoting.internal.serialize.HashedKeys;
import io.ferry.rpc.spi.WireText;

import java.io.IOException;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.GenericArrayType;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.lang.reflect.WildcardType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.text.ParseException;
import java.text.SimpleDateFormat;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Date;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Dubbo's generic form of values ({@code PojoUtils}), both ways, written for Ferry.
 * <ul>
 *   <li>{@link #generalize}: a POJO becomes a {@code HashMap} of its bean properties and public fields (a record:
 *       its components), with {@code class} naming its class; an enum its name; {@code LocalDate},
 *       {@code LocalDateTime} and {@code LocalTime} their ISO text; strings, numbers, booleans, characters, dates
 *       and arrays of them stay as they are; arrays become {@code Object[]}, lists {@code ArrayList}s, other
 *       collections {@code HashSet}s, maps maps, with their elements generalized.</li>
 *   <li>{@link Realizer#realize}: the other way, to a declared type, on the provider of a generic call. A map's
 *       {@code class} is a name from the wire: it is checked against the service's {@link AllowedClasses}
 *       <em>before</em> anything loads it, and must name the declared type or a subtype of it; a refused name
 *       fails the call and nothing of it is created. Only a no-argument constructor (or a record's canonical
 *       one) builds an object; properties are set through setters, else fields; unknown ones are skipped, as
 *       Dubbo skips them.</li>
 * </ul>
 * Both walk at most {@link GuardedHessian2Input#MAX_DEPTH} levels, the decoder's bound, and keep cycles: an object
 * met again is the same converted object, never walked twice.
 */
public final class PojoMaps {
    /** The key that names a POJO's class in its map, as Dubbo writes it. */
    public static final String CLASS_KEY = "class";
    static final int MAX_DEPTH = GuardedHessian2Input.MAX_DEPTH;

    private PojoMaps() {
    }

    /**
     * The generic form of {@code value}.
     *
     * @throws IllegalArgumentException nested deeper than {@link GuardedHessian2Input#MAX_DEPTH} levels, or a getter
     *                                  that threw
     */
    public static Object generalize(Object value) {
        return generalize(value, new IdentityHashMap<>(), 0);
    }

    private static Object generalize(Object value, Map<Object, Object> seen, int depth) {
        if (value == null) {
            return null;
        }
        if (value instanceof Enum<?> e) {
            return e.name();
        }
        Class<?> type = value.getClass();
        if (type.isArray() && type.getComponentType().isEnum()) {
            String[] names = new String[Array.getLength(value)];
            for (int i = 0; i < names.length; i++) {
                Object element = Array.get(value, i);
                names[i] = element == null ? null : ((Enum<?>) element).name();
            }
            return names;
        }
        if (isSimple(type)) {
            return value;
        }
        if (value instanceof LocalDate || value instanceof LocalDateTime || value instanceof LocalTime) {
            return value.toString();
        }
        if (value instanceof Class<?> c) {
            return c.getName();
        }
        Object done = seen.get(value);
        if (done != null) {
            return done;
        }
        if (depth >= MAX_DEPTH) {
            throw new IllegalArgumentException("value nested deeper than " + MAX_DEPTH + " levels");
        }
        if (type.isArray()) {
            Object[] copy = new Object[Array.getLength(value)];
            seen.put(value, copy);
            for (int i = 0; i < copy.length; i++) {
                copy[i] = generalize(Array.get(value, i), seen, depth + 1);
            }
            return copy;
        }
        if (value instanceof Collection<?> collection) {
            Collection<Object> copy = value instanceof List<?> ? new ArrayList<>(collection.size())
                    : new HashSet<>();
            seen.put(value, copy);
            for (Object element : collection) {
                copy.add(generalize(element, seen, depth + 1));
            }
            return copy;
        }
        if (value instanceof Map<?, ?> map) {
            Map<Object, Object> copy = value instanceof SortedMap<?, ?> ? new TreeMap<>()
                    : value instanceof LinkedHashMap<?, ?> ? new LinkedHashMap<>() : new HashMap<>();
            seen.put(value, copy);
            for (Map.Entry<?, ?> e : map.entrySet()) {
                copy.put(generalize(e.getKey(), seen, depth + 1), generalize(e.getValue(), seen, depth + 1));
            }
            return copy;
        }
        Map<String, Object> properties = new HashMap<>();
        seen.put(value, properties);
        properties.put(CLASS_KEY, type.getName());
        if (type.isRecord()) {
            // Dubbo knows only getters, which records lack: their components are their properties
            for (RecordComponent component : type.getRecordComponents()) {
                properties.put(component.getName(), generalize(get(component.getAccessor(), value), seen,
                        depth + 1));
            }
            return properties;
        }
        for (Map.Entry<String, Method> getter : GETTERS.get(type).entrySet()) {
            properties.put(getter.getKey(), generalize(get(getter.getValue(), value), seen, depth + 1));
        }
        for (Field field : PUBLIC_FIELDS.get(type)) {
            if (!properties.containsKey(field.getName())) {
                Object fieldValue = read(field, value);
                if (fieldValue != null) {
                    properties.put(field.getName(), generalize(fieldValue, seen, depth + 1));
                }
            }
        }
        return properties;
    }

    /** A class's getters by property name, found once per class. */
    private static final ClassValue<Map<String, Method>> GETTERS = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            Map<String, Method> getters = new LinkedHashMap<>();
            for (Method method : type.getMethods()) {
                String property = propertyOfGetter(method);
                if (property != null) {
                    getters.putIfAbsent(property, method);
                }
            }
            return getters;
        }
    };

    /** A class's public instance fields that are not transient, found once per class. */
    private static final ClassValue<List<Field>> PUBLIC_FIELDS = new ClassValue<>() {
        @Override
        protected List<Field> computeValue(Class<?> type) {
            List<Field> fields = new ArrayList<>();
            for (Field field : type.getFields()) {
                int modifiers = field.getModifiers();
                if (!Modifier.isStatic(modifiers) && !Modifier.isTransient(modifiers)) {
                    fields.add(field);
                }
            }
            return List.copyOf(fields);
        }
    };

    /** Strings, numbers, booleans, characters, dates, and arrays of them (primitive arrays included). */
    static boolean isSimple(Class<?> type) {
        while (type.isArray()) {
            type = type.getComponentType();
        }
        return type.isPrimitive() || type == String.class || type == Boolean.class || type == Character.class
                || Number.class.isAssignableFrom(type) || Date.class.isAssignableFrom(type);
    }

    /** {@code getX()} or {@code isX()} (boolean), public, not static, no parameters; null for any other method. */
    private static String propertyOfGetter(Method method) {
        if (Modifier.isStatic(method.getModifiers()) || method.getParameterCount() != 0
                || method.getDeclaringClass() == Object.class || method.getReturnType() == void.class) {
            return null;
        }
        String name = method.getName();
        if (name.startsWith("get") && name.length() > 3) {
            return decapitalize(name.substring(3));
        }
        if (name.startsWith("is") && name.length() > 2
                && (method.getReturnType() == boolean.class || method.getReturnType() == Boolean.class)) {
            return decapitalize(name.substring(2));
        }
        return null;
    }

    private static String decapitalize(String name) {
        return Character.toLowerCase(name.charAt(0)) + name.substring(1);
    }

    private static Object get(Method getter, Object target) {
        try {
            if (!getter.canAccess(target)) {
                getter.setAccessible(true); // a public getter of a class that is not itself public
            }
            return getter.invoke(target);
        } catch (InvocationTargetException e) {
            throw new IllegalArgumentException(getter.getDeclaringClass().getName() + "." + getter.getName()
                    + " threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new IllegalArgumentException("cannot read " + getter.getDeclaringClass().getName() + "."
                    + getter.getName() + ": " + e, e);
        }
    }

    private static Object read(Field field, Object target) {
        try {
            return field.get(target);
        } catch (IllegalAccessException | RuntimeException e) {
            return null;
        }
    }

    /** Converts generic values to declared types under one service's allow-list. */
    public static Realizer realizer(AllowedClasses allowed, ClassLoader loader) {
        return new Realizer(allowed, loader);
    }

    /** Converts generic values to declared types; thread-safe, one per service. */
    public static final class Realizer {
        private final AllowedClasses allowed;
        private final ClassLoader loader;

        private Realizer(AllowedClasses allowed, ClassLoader loader) {
            this.allowed = allowed;
            this.loader = loader;
        }

        /**
         * {@code value} as the declared {@code type}.
         *
         * @param where what is converted, for messages ({@code "getUser argument 0"})
         * @throws IOException a class the allow-list refuses (its message names the class and where to allow it), a
         *                     value that cannot be the declared type, nesting deeper than the decoder allows
         */
        public Object realize(Object value, Type type, String where) throws IOException {
            return new Walk(where).realize(value, type, "", 0);
        }

        private final class Walk {
            private final String where;
            private final Map<Object, Object> seen = new IdentityHashMap<>();
            /** Values met again (a back-reference on the wire), so far: a key that holds one is no key. */
            private int repeats;

            Walk(String where) {
                this.where = where;
            }

            Object realize(Object value, Type declared, String path, int depth) throws IOException {
                Class<?> type = box(raw(declared));
                if (value == null) {
                    if (raw(declared).isPrimitive()) {
                        throw fail(path, "null for a " + raw(declared).getName());
                    }
                    return null;
                }
                if (depth >= MAX_DEPTH) {
                    throw fail(path, "value nested deeper than " + MAX_DEPTH + " levels");
                }
                if (type.isEnum()) {
                    return realizeEnum(value, type, path);
                }
                if (type.isArray()) {
                    return realizeArray(value, declared, type, path, depth);
                }
                if (Collection.class.isAssignableFrom(type)) {
                    return realizeCollection(value, declared, type, path, depth);
                }
                if (value instanceof Map<?, ?> map) {
                    if (Map.class.isAssignableFrom(type)) {
                        return realizeMap(map, declared, type, path, depth);
                    }
                    return realizeObject(map, type, path, depth);
                }
                Object simple = convertSimple(value, type, path);
                if (simple != null) {
                    return simple;
                }
                if (type.isInstance(value)) {
                    return value; // arrived typed: the decoder has checked its class already
                }
                throw fail(path, "a " + value.getClass().getName() + " cannot be a " + type.getName());
            }

            private Object realizeEnum(Object value, Class<?> type, String path) throws IOException {
                if (type.isInstance(value)) {
                    return value;
                }
                if (value instanceof String name) {
                    for (Object constant : type.getEnumConstants()) {
                        if (((Enum<?>) constant).name().equals(name)) {
                            return constant;
                        }
                    }
                    throw fail(path, "no constant '" + shown(name) + "' in " + type.getName());
                }
                throw fail(path, "a " + value.getClass().getName() + " cannot be a " + type.getName()
                        + " (expected: the constant's name)");
            }

            private Object realizeArray(Object value, Type declared, Class<?> type, String path, int depth)
                    throws IOException {
                Object done = seen.get(value);
                if (done != null && type.isInstance(done)) {
                    repeats++;
                    return done;
                }
                Type component = declared instanceof GenericArrayType g ? g.getGenericComponentType()
                        : type.getComponentType();
                Object[] elements;
                if (value instanceof Collection<?> c) {
                    elements = c.toArray();
                } else if (value.getClass().isArray()) {
                    elements = new Object[Array.getLength(value)];
                    for (int i = 0; i < elements.length; i++) {
                        elements[i] = Array.get(value, i);
                    }
                } else {
                    throw fail(path, "a " + value.getClass().getName() + " cannot be a " + type.getTypeName());
                }
                Object array = Array.newInstance(type.getComponentType(), elements.length);
                seen.put(value, array);
                for (int i = 0; i < elements.length; i++) {
                    Array.set(array, i, realize(elements[i], component, path + "[" + i + "]", depth + 1));
                }
                return array;
            }

            @SuppressWarnings("unchecked")
            private Object realizeCollection(Object value, Type declared, Class<?> type, String path, int depth)
                    throws IOException {
                Object done = seen.get(value);
                if (done != null && type.isInstance(done)) {
                    repeats++;
                    return done;
                }
                Iterable<?> elements;
                if (value instanceof Collection<?> c) {
                    elements = c;
                } else if (value.getClass().isArray()) {
                    List<Object> list = new ArrayList<>();
                    for (int i = 0; i < Array.getLength(value); i++) {
                        list.add(Array.get(value, i));
                    }
                    elements = list;
                } else {
                    throw fail(path, "a " + value.getClass().getName() + " cannot be a " + type.getName());
                }
                Collection<Object> collection = (Collection<Object>) newContainer(type, path);
                seen.put(value, collection);
                Type element = typeArgument(declared, 0);
                boolean hashes = collection instanceof Set; // any set, again: it may have arrived as a list
                HashedKeys.Collisions collisions = null;
                int i = 0;
                for (Object e : elements) {
                    String at = path + "[" + i + "]";
                    int repeatsBefore = repeats;
                    Object realized = realize(e, element, at, depth + 1);
                    if (hashes) {
                        collisions = admitted(collisions, realized, repeats != repeatsBefore, collection, i, at);
                    }
                    collection.add(realized);
                    i++;
                }
                return collection;
            }

            @SuppressWarnings("unchecked")
            private Object realizeMap(Map<?, ?> value, Type declared, Class<?> type, String path, int depth)
                    throws IOException {
                Object done = seen.get(value);
                if (done != null && type.isInstance(done)) {
                    repeats++;
                    return done;
                }
                Map<Object, Object> map = (Map<Object, Object>) newContainer(type, path);
                seen.put(value, map);
                Type keyType = typeArgument(declared, 0);
                Type valueType = typeArgument(declared, 1);
                HashedKeys.Collisions collisions = null;
                int i = 0;
                for (Map.Entry<?, ?> e : value.entrySet()) {
                    String at = path + "[" + shown(e.getKey()) + "]";
                    int repeatsBefore = repeats;
                    Object key = realize(e.getKey(), keyType, at, depth + 1);
                    collisions = admitted(collisions, key, repeats != repeatsBefore, map, i++, at);
                    map.put(key, realize(e.getValue(), valueType, at, depth + 1));
                }
                return map;
            }

            private Object realizeObject(Map<?, ?> value, Class<?> declared, String path, int depth)
                    throws IOException {
                Object done = seen.get(value);
                if (done != null && declared.isInstance(done)) {
                    repeats++;
                    return done;
                }
                Class<?> type = declared;
                Object named = value.get(CLASS_KEY);
                if (named instanceof String className && !className.equals(declared.getName())) {
                    type = load(className, declared, path);
                } else if (named != null && !(named instanceof String)) {
                    throw fail(path, "'class' is a " + named.getClass().getName() + " (expected: a class name)");
                }
                if (type == Object.class) {
                    return realizeMap(value, Map.class, LinkedHashMap.class, path, depth); // no class: stays a map
                }
                if (Map.class.isAssignableFrom(type)) {
                    return realizeMap(value, type, type, path, depth);
                }
                if (type.getName().startsWith("java.") || type.getName().startsWith("javax.")) {
                    throw fail(path, "a map cannot be a " + type.getName());
                }
                allowed.check(type.getName()); // the declared type is reachable, so allowed; a subtype must be too
                if (type.isRecord()) {
                    return realizeRecord(value, type, path, depth);
                }
                if (type.isInterface() || Modifier.isAbstract(type.getModifiers())) {
                    throw fail(path, type.getName() + " is abstract (expected: a map whose 'class' names a "
                            + "concrete class)");
                }
                Object object = instantiate(type, path);
                seen.put(value, object);
                for (Map.Entry<?, ?> e : value.entrySet()) {
                    if (!(e.getKey() instanceof String property) || CLASS_KEY.equals(property)) {
                        continue;
                    }
                    set(object, type, property, e.getValue(), path + "." + shown(property), depth);
                }
                return object;
            }

            private Object realizeRecord(Map<?, ?> value, Class<?> type, String path, int depth)
                    throws IOException {
                RecordComponent[] components = type.getRecordComponents();
                Object[] arguments = new Object[components.length];
                Class<?>[] types = new Class<?>[components.length];
                for (int i = 0; i < components.length; i++) {
                    types[i] = components[i].getType();
                    arguments[i] = realize(value.get(components[i].getName()), components[i].getGenericType(),
                            path + "." + components[i].getName(), depth + 1);
                    if (arguments[i] == null && types[i].isPrimitive()) {
                        arguments[i] = Array.get(Array.newInstance(types[i], 1), 0);
                    }
                }
                try {
                    Constructor<?> canonical = type.getDeclaredConstructor(types);
                    canonical.setAccessible(true);
                    Object record = canonical.newInstance(arguments);
                    seen.put(value, record);
                    return record;
                } catch (InvocationTargetException e) {
                    throw fail(path, type.getName() + "'s constructor threw " + e.getCause());
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw fail(path, "cannot construct " + type.getName() + ": " + e);
                }
            }

            /** Loads a class named by the peer, only once the allow-list has said yes. */
            private Class<?> load(String className, Class<?> declared, String path) throws IOException {
                allowed.check(className);
                Class<?> type;
                try {
                    type = Class.forName(className, false, loader);
                } catch (ClassNotFoundException | LinkageError e) {
                    throw fail(path, "class not found: " + WireText.escape(className));
                }
                if (!declared.isAssignableFrom(type)) {
                    throw fail(path, className + " is not a " + declared.getName());
                }
                return type;
            }

            private void set(Object object, Class<?> type, String property, Object value, String path, int depth)
                    throws IOException {
                Method setter = setter(type, property);
                try {
                    if (setter != null) {
                        setter.invoke(object, realize(value, setter.getGenericParameterTypes()[0], path,
                                depth + 1));
                        return;
                    }
                    Field field = field(type, property);
                    if (field != null) {
                        field.setAccessible(true);
                        field.set(object, realize(value, field.getGenericType(), path, depth + 1));
                    }
                    // no such property: skipped, as Dubbo skips it (the provider's class may have moved on)
                } catch (InvocationTargetException e) {
                    throw fail(path, "setter threw " + e.getCause());
                } catch (IllegalAccessException | RuntimeException e) {
                    throw fail(path, "cannot set: " + e);
                }
            }

            /**
             * The decoder's key check ({@link HashedKeys}) again, on what a key or set element became: a list the
             * decoder read as a list (no hashing there) becomes a set here, and a map without a class an application
             * object, so a generic call would otherwise hash what the decoder never let into a map or set. A key
             * whose conversion met a value again counts as built from back-references; one that arrived typed is
             * passed through as decoded, its graph bounded by the decode budget, which counts every repeat.
             */
            private HashedKeys.Collisions admitted(HashedKeys.Collisions collisions, Object key, boolean repeated,
                                                   Object container, int position, String path) throws IOException {
                try {
                    return HashedKeys.admitted(collisions, key, repeated, container, position);
                } catch (HessianProtocolException e) {
                    throw fail(path, e.getMessage());
                }
            }

            private IOException fail(String path, String what) {
                return new GenericValueException(where + (path.isEmpty() ? "" : " " + path) + ": " + what);
            }

            private Object newContainer(Class<?> type, String path) throws IOException {
                if (!type.isInterface() && !Modifier.isAbstract(type.getModifiers())) {
                    if (!type.getName().startsWith("java.util.")) {
                        allowed.check(type.getName());
                    }
                    return instantiate(type, path);
                }
                if (Map.class.isAssignableFrom(type)) {
                    return SortedMap.class.isAssignableFrom(type) ? new TreeMap<>() : new LinkedHashMap<>();
                }
                if (SortedSet.class.isAssignableFrom(type)) {
                    return new TreeSet<>();
                }
                if (Set.class.isAssignableFrom(type)) {
                    return new LinkedHashSet<>();
                }
                if (type.isAssignableFrom(ArrayList.class)) {
                    return new ArrayList<>();
                }
                throw fail(path, "cannot make a " + type.getName());
            }

            private Object instantiate(Class<?> type, String path) throws IOException {
                try {
                    Constructor<?> constructor = type.getDeclaredConstructor();
                    constructor.setAccessible(true);
                    return constructor.newInstance();
                } catch (NoSuchMethodException e) {
                    throw fail(path, type.getName() + " has no constructor without arguments");
                } catch (InvocationTargetException e) {
                    throw fail(path, type.getName() + "'s constructor threw " + e.getCause());
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw fail(path, "cannot construct " + type.getName() + ": " + e);
                }
            }

            /** Strings, numbers, booleans, characters, dates, in the representations Dubbo's consumers send. */
            private Object convertSimple(Object value, Class<?> type, String path) throws IOException {
                if (type.isInstance(value) && !(value instanceof Collection) && !(value instanceof Map)
                        && !value.getClass().isArray()) {
                    return value;
                }
                try {
                    if (value instanceof Number n) {
                        return number(n, type);
                    }
                    if (value instanceof String s) {
                        return fromString(s, type);
                    }
                    if (value instanceof Character c && type == String.class) {
                        return c.toString();
                    }
                    if (value instanceof Date d && type == Long.class) {
                        return d.getTime();
                    }
                } catch (NumberFormatException | DateTimeParseException | ParseException e) {
                    throw fail(path, "'" + shown(value) + "' is not a " + type.getName());
                }
                return null;
            }

            private Object number(Number n, Class<?> type) {
                if (type == Integer.class) {
                    return n.intValue();
                }
                if (type == Long.class) {
                    return n.longValue();
                }
                if (type == Double.class) {
                    return n.doubleValue();
                }
                if (type == Float.class) {
                    return n.floatValue();
                }
                if (type == Short.class) {
                    return n.shortValue();
                }
                if (type == Byte.class) {
                    return n.byteValue();
                }
                if (type == BigDecimal.class) {
                    return n instanceof BigInteger b ? new BigDecimal(b) : new BigDecimal(n.toString());
                }
                if (type == BigInteger.class) {
                    return n instanceof BigDecimal d ? d.toBigInteger() : BigInteger.valueOf(n.longValue());
                }
                if (type == String.class) {
                    return n.toString();
                }
                if (type == Date.class) {
                    return new Date(n.longValue());
                }
                return null;
            }

            private Object fromString(String s, Class<?> type) throws ParseException {
                if (type == Integer.class) {
                    return Integer.valueOf(s);
                }
                if (type == Long.class) {
                    return Long.valueOf(s);
                }
                if (type == Double.class) {
                    return Double.valueOf(s);
                }
                if (type == Float.class) {
                    return Float.valueOf(s);
                }
                if (type == Short.class) {
                    return Short.valueOf(s);
                }
                if (type == Byte.class) {
                    return Byte.valueOf(s);
                }
                if (type == Boolean.class) {
                    return Boolean.valueOf(s);
                }
                if (type == Character.class && s.length() == 1) {
                    return s.charAt(0);
                }
                if (type == BigDecimal.class) {
                    return new BigDecimal(s);
                }
                if (type == BigInteger.class) {
                    return new BigInteger(s);
                }
                if (type == LocalDate.class) {
                    return LocalDate.parse(s);
                }
                if (type == LocalDateTime.class) {
                    return LocalDateTime.parse(s);
                }
                if (type == LocalTime.class) {
                    return LocalTime.parse(s);
                }
                if (type == Date.class) {
                    return new SimpleDateFormat("yyyy-MM-dd HH:mm:ss").parse(s); // Dubbo's format
                }
                return null;
            }
        }
    }

    /** A value from the wire as a message shows it: cut, since a peer chooses its length (escaped where sent). */
    private static String shown(Object value) {
        String text = String.valueOf(value);
        return text.length() <= 64 ? text : text.substring(0, 64) + "... (" + text.length() + " chars)";
    }

    /** A class's one-argument setters by property name, found once per class. */
    private static final ClassValue<Map<String, Method>> SETTERS = new ClassValue<>() {
        @Override
        protected Map<String, Method> computeValue(Class<?> type) {
            Map<String, Method> setters = new HashMap<>();
            for (Method method : type.getMethods()) {
                String name = method.getName();
                if (name.length() > 3 && name.startsWith("set") && method.getParameterCount() == 1
                        && !Modifier.isStatic(method.getModifiers())) {
                    setters.putIfAbsent(decapitalize(name.substring(3)), method);
                }
            }
            return Map.copyOf(setters);
        }
    };

    /** A class's settable fields (neither static nor final), its own before its superclasses', found once. */
    private static final ClassValue<Map<String, Field>> FIELDS = new ClassValue<>() {
        @Override
        protected Map<String, Field> computeValue(Class<?> type) {
            Map<String, Field> fields = new HashMap<>();
            for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
                for (Field field : c.getDeclaredFields()) {
                    int modifiers = field.getModifiers();
                    if (!Modifier.isStatic(modifiers) && !Modifier.isFinal(modifiers)) {
                        fields.putIfAbsent(field.getName(), field);
                    }
                }
            }
            return Map.copyOf(fields);
        }
    };

    private static Method setter(Class<?> type, String property) {
        return property.isEmpty() ? null : SETTERS.get(type).get(property);
    }

    private static Field field(Class<?> type, String name) {
        return FIELDS.get(type).get(name);
    }

    private static Class<?> raw(Type type) {
        if (type instanceof Class<?> c) {
            return c;
        }
        if (type instanceof ParameterizedType p) {
            return raw(p.getRawType());
        }
        if (type instanceof GenericArrayType g) {
            return Array.newInstance(raw(g.getGenericComponentType()), 0).getClass();
        }
        if (type instanceof WildcardType w) {
            return raw(w.getUpperBounds()[0]);
        }
        return Object.class; // a type variable: whatever arrives
    }

    private static Type typeArgument(Type type, int index) {
        if (type instanceof ParameterizedType p && p.getActualTypeArguments().length > index) {
            return p.getActualTypeArguments()[index];
        }
        return Object.class;
    }

    private static Class<?> box(Class<?> type) {
        if (!type.isPrimitive()) {
            return type;
        }
        return type == int.class ? Integer.class : type == long.class ? Long.class : type == boolean.class
                ? Boolean.class : type == double.class ? Double.class : type == float.class ? Float.class
                : type == short.class ? Short.class : type == byte.class ? Byte.class : type == char.class
                ? Character.class : Void.class;
    }

    /** A value of a generic call that cannot be its declared type; the message says where and why. */
    public static final class GenericValueException extends IOException {
        private static final long serialVersionUID = 1L;

        GenericValueException(String message) {
            super(message);
        }
    }
}
