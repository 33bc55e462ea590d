package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.AbstractHessianInput;
import com.alibaba.com.caucho.hessian.io.Deserializer;
import com.alibaba.com.caucho.hessian.io.HessianFieldException;
import com.alibaba.com.caucho.hessian.io.IOExceptionWrapper;
import io.ferry.rpc.remoting.internal.serialize.GuardedHessian2Input;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Date;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * An object read as hessian-lite's {@code UnsafeDeserializer} reads it: an instance made without a constructor,
 * registered as a reference, then its fields in the order the class definition names them, each set at its offset
 * with the same read call hessian-lite's field reader makes; a name the class lacks is read and dropped. What differs
 * is the work per field: one switch over a kind byte instead of a field-reader object each (a call site that sees
 * every kind), generic element types looked up once per class instead of per value, and a {@code Date} field's
 * date read straight from its tag. A field of an object type accepts only a value of that type: hessian-lite would
 * store whatever a back-reference points at, breaking the field's type. (Objects written as maps, which hessian2
 * writers do not send, are still read by hessian-lite, unchecked.) And where hessian-lite cannot read a class at all
 * (a field whose declared type is a type variable bounded by {@code List}, {@code Map} or {@code Set}: its field
 * reader casts the variable to a parameterized type), this reads the field as any other object.
 *
 * <p>Classes with {@code readResolve}, records, and everything hessian-lite does not read with its unsafe
 * deserializer stay with hessian-lite; so do objects written as maps and by field names only
 * ({@link #readMap}).
 */
public final class PojoReader implements Deserializer {
    private static final byte SKIP = 0;
    private static final byte BOOLEAN = 1;
    private static final byte BYTE = 2;
    private static final byte SHORT = 3;
    private static final byte INT = 4;
    private static final byte LONG = 5;
    private static final byte FLOAT = 6;
    private static final byte DOUBLE = 7;
    private static final byte CHAR = 8;
    private static final byte STRING = 9;
    private static final byte DATE = 10;
    private static final byte SQL_DATE = 11;
    private static final byte SQL_TIME = 12;
    private static final byte SQL_TIMESTAMP = 13;
    private static final byte GENERIC = 14;
    private static final byte OBJECT = 15;

    private static final int DATE_MILLIS = 0x4a;
    private static final int DATE_MINUTES = 0x4b;
    private static final int NULL = 'N';

    /** The boxes hessian-lite hands down as a collection's element type (its field readers' "primitive" types). */
    private static final Set<Class<?>> BOXES = Set.of(Boolean.class, Character.class, Byte.class, Short.class,
            Integer.class, Long.class, Float.class, Double.class, Void.class);

    private static final FieldReader UNKNOWN = new FieldReader(SKIP, null, -1, null, null);

    private final Class<?> type;
    private final Deserializer hessianLite;
    private final Map<String, FieldReader> byName;

    private PojoReader(Class<?> type, Deserializer hessianLite) {
        this.type = type;
        this.hessianLite = hessianLite;
        this.byName = fieldReaders(type);
    }

    /**
     * Ferry's reader for {@code type}, whose hessian-lite deserializer is {@code hessianLite} (its unsafe one), or
     * {@code hessianLite} itself where fields cannot be set at offsets or the class resolves what it reads.
     */
    public static Deserializer of(Class<?> type, Deserializer hessianLite) {
        if (!FieldAccess.available() || hessianLite.isReadResolve()) {
            return hessianLite;
        }
        try {
            return new PojoReader(type, hessianLite);
        } catch (RuntimeException unreadable) {
            return hessianLite;
        }
    }

    /** The class's fields by name as hessian-lite finds them: its own first, then its superclasses'. */
    private static Map<String, FieldReader> fieldReaders(Class<?> type) {
        Map<String, FieldReader> readers = new HashMap<>();
        for (Class<?> c = type; c != null; c = c.getSuperclass()) {
            for (Field field : c.getDeclaredFields()) {
                int modifiers = field.getModifiers();
                if (Modifier.isTransient(modifiers) || Modifier.isStatic(modifiers)
                        || readers.containsKey(field.getName())) {
                    continue;
                }
                readers.put(field.getName(), FieldReader.of(field));
            }
        }
        return readers;
    }

    @Override
    public Class<?> getType() {
        return type;
    }

    @Override
    public boolean isReadResolve() {
        return false;
    }

    @Override
    public Object[] createFields(int len) {
        return new FieldReader[len];
    }

    @Override
    public Object createField(String name) {
        FieldReader reader = byName.get(name);
        return reader != null ? reader : UNKNOWN;
    }

    @Override
    public Object readObject(AbstractHessianInput in, Object[] fields) throws IOException {
        Object obj = instantiate();
        in.addRef(obj);
        FieldReader reader = UNKNOWN;
        try {
            for (Object field : fields) {
                reader = (FieldReader) field;
                read(reader, in, obj);
            }
        } catch (Exception e) {
            throw reader.failed(e, obj);
        }
        return obj;
    }

    @Override
    public Object readObject(AbstractHessianInput in, String[] fieldNames) throws IOException {
        Object[] fields = new Object[fieldNames.length];
        for (int i = 0; i < fields.length; i++) {
            fields[i] = createField(fieldNames[i]);
        }
        return readObject(in, fields);
    }

    private Object instantiate() throws IOException {
        try {
            return FieldAccess.allocate(type);
        } catch (InstantiationException e) {
            throw new IOExceptionWrapper(type.getName() + ":" + e.getMessage(), e);
        }
    }

    private static void read(FieldReader r, AbstractHessianInput in, Object obj) throws IOException {
        long at = r.offset;
        switch (r.kind) {
            case BOOLEAN -> FieldAccess.putBoolean(obj, at, in.readBoolean());
            case BYTE -> FieldAccess.putByte(obj, at, (byte) in.readInt());
            case SHORT -> FieldAccess.putShort(obj, at, (short) in.readInt());
            case INT -> FieldAccess.putInt(obj, at, in.readInt());
            case LONG -> FieldAccess.putLong(obj, at, in.readLong());
            case FLOAT -> FieldAccess.putFloat(obj, at, (float) in.readDouble());
            case DOUBLE -> FieldAccess.putDouble(obj, at, in.readDouble());
            case CHAR -> {
                String value = in.readString();
                FieldAccess.putChar(obj, at, value != null && !value.isEmpty() ? value.charAt(0) : 0);
            }
            case STRING -> FieldAccess.putObject(obj, at, in.readString());
            case DATE -> FieldAccess.putObject(obj, at, r.checked(readDate(in)));
            case SQL_DATE -> {
                Date date = (Date) in.readObject();
                FieldAccess.putObject(obj, at, date == null ? null : new java.sql.Date(date.getTime()));
            }
            case SQL_TIME -> {
                Date date = (Date) in.readObject();
                FieldAccess.putObject(obj, at, date == null ? null : new java.sql.Time(date.getTime()));
            }
            case SQL_TIMESTAMP -> {
                Date date = (Date) in.readObject();
                FieldAccess.putObject(obj, at, date == null ? null : new java.sql.Timestamp(date.getTime()));
            }
            case GENERIC -> FieldAccess.putObject(obj, at, r.checked(in.readObject(r.type, r.expected)));
            case OBJECT -> FieldAccess.putObject(obj, at, r.checked(in.readObject(r.type)));
            default -> in.readObject();
        }
    }

    /** What {@code in.readObject(Date.class)} gives, without its lookups for the two date tags and null. */
    private static Object readDate(AbstractHessianInput in) throws IOException {
        if (in instanceof GuardedHessian2Input guarded) {
            int tag = guarded.peekTag();
            if (tag == DATE_MILLIS || tag == DATE_MINUTES) {
                return new Date(guarded.readUTCDate());
            }
            if (tag == NULL) {
                guarded.read();
                return null;
            }
        }
        return in.readObject(Date.class); // checked by the caller: a back-reference can point at anything
    }

    // Everything but objects written with a class definition: hessian-lite's own reading.

    @Override
    public Object readObject(AbstractHessianInput in) throws IOException {
        return hessianLite.readObject(in);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length) throws IOException {
        return hessianLite.readList(in, length);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length) throws IOException {
        return hessianLite.readLengthList(in, length);
    }

    @Override
    public Object readMap(AbstractHessianInput in) throws IOException {
        return hessianLite.readMap(in);
    }

    @Override
    public Object readList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        return hessianLite.readList(in, length, expectType);
    }

    @Override
    public Object readLengthList(AbstractHessianInput in, int length, Class<?> expectType) throws IOException {
        return hessianLite.readLengthList(in, length, expectType);
    }

    @Override
    public Object readMap(AbstractHessianInput in, Class<?> expectKeyType, Class<?> expectValueType)
            throws IOException {
        return hessianLite.readMap(in, expectKeyType, expectValueType);
    }

    /** One field: how to read it, where it goes, and for object fields, its type. */
    private static final class FieldReader {
        final byte kind;
        final Field field;
        final long offset;
        final Class<?> type;
        /** A collection's element type (or a map's key and value types) as hessian-lite passes them; or null. */
        final Class<?>[] expected;

        private FieldReader(byte kind, Field field, long offset, Class<?> type, Class<?>[] expected) {
            this.kind = kind;
            this.field = field;
            this.offset = offset;
            this.type = type;
            this.expected = expected;
        }

        static FieldReader of(Field field) {
            Class<?> type = field.getType();
            long offset = FieldAccess.offsetOf(field);
            Class<?>[] expected = expectedTypes(field);
            byte kind = expected != null ? GENERIC : kindOf(type);
            return new FieldReader(kind, field, offset, type, expected);
        }

        private static byte kindOf(Class<?> type) {
            if (type == String.class) {
                return STRING;
            } else if (type == byte.class) {
                return BYTE;
            } else if (type == char.class) {
                return CHAR;
            } else if (type == short.class) {
                return SHORT;
            } else if (type == int.class) {
                return INT;
            } else if (type == long.class) {
                return LONG;
            } else if (type == float.class) {
                return FLOAT;
            } else if (type == double.class) {
                return DOUBLE;
            } else if (type == boolean.class) {
                return BOOLEAN;
            } else if (type == java.sql.Date.class) {
                return SQL_DATE;
            } else if (type == java.sql.Timestamp.class) {
                return SQL_TIMESTAMP;
            } else if (type == java.sql.Time.class) {
                return SQL_TIME;
            } else if (type == Date.class) {
                return DATE;
            }
            return OBJECT;
        }

        /**
         * For a field declared as a parameterized {@code Map}, {@code List} or {@code Set} exactly, the types
         * hessian-lite's field reader hands down: each type argument that is a primitive or a box, else null.
         */
        private static Class<?>[] expectedTypes(Field field) {
            Class<?> type = field.getType();
            if (type != Map.class && type != List.class && type != Set.class) {
                return null;
            }
            if (!(field.getGenericType() instanceof ParameterizedType parameterized)) {
                return null; // a raw type: read as any other object
            }
            Type[] arguments = parameterized.getActualTypeArguments();
            Class<?>[] expected = new Class<?>[type == Map.class ? 2 : 1];
            for (int i = 0; i < expected.length; i++) {
                expected[i] = arguments[i] instanceof Class<?> c && (c.isPrimitive() || BOXES.contains(c)) ? c : null;
            }
            return expected;
        }

        /** {@code value}, which must fit the field: a back-reference can point at anything. */
        Object checked(Object value) throws HessianFieldException {
            if (value != null && !type.isInstance(value)) {
                throw new HessianFieldException(name() + ": " + value.getClass().getName()
                        + " cannot be assigned to '" + type.getName() + "'");
            }
            return value;
        }

        /** The error hessian-lite gives for {@code e}: its field readers', or for a name the class lacks, its own. */
        IOException failed(Exception e, Object obj) {
            if (field == null) {
                return e instanceof IOException io ? io : new IOExceptionWrapper(obj.getClass().getName() + ":" + e, e);
            }
            if (e instanceof HessianFieldException fieldError) {
                return fieldError;
            }
            if (e instanceof IOException) {
                return new HessianFieldException(name() + ": " + e.getMessage(), e);
            }
            return new HessianFieldException(name() + ": " + type.getName() + " cannot be assigned from null", e);
        }

        private String name() {
            return field == null ? "(unknown field)" : field.getDeclaringClass().getName() + "." + field.getName();
        }
    }
}
