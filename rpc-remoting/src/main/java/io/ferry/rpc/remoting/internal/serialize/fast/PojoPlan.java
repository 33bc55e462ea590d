package io.ferry.rpc.remoting.internal.serialize.fast;

import java.io.IOException;
import java.lang.reflect.Field;
import java.util.Date;
import java.util.List;

/**
 * An object as hessian-lite's UnsafeSerializer writes it (a class definition the first time, then the fields in
 * {@link FieldOrder}, each with the same write call), reading its fields at offsets found once per class. The write
 * call per field is chosen by a switch over a kind byte rather than an object per field, so that the loop stays
 * monomorphic.
 */
final class PojoPlan implements WritePlan {
    private static final byte BOOLEAN = 0;
    private static final byte BYTE_SHORT_INT = 1;
    private static final byte CHAR = 2;
    private static final byte LONG = 3;
    private static final byte FLOAT = 4;
    private static final byte DOUBLE = 5;
    private static final byte STRING = 6;
    private static final byte DATE = 7;
    private static final byte OBJECT = 8;
    private static final byte BYTE = 9;
    private static final byte SHORT = 10;

    private final String typeName;
    private final String[] names;
    private final byte[] kinds;
    private final long[] offsets;

    private PojoPlan(Class<?> type, List<Field> fields) {
        this.typeName = type.getName();
        int n = fields.size();
        this.names = new String[n];
        this.kinds = new byte[n];
        this.offsets = new long[n];
        for (int i = 0; i < n; i++) {
            Field field = fields.get(i);
            names[i] = field.getName();
            kinds[i] = kindOf(field.getType());
            offsets[i] = FieldAccess.offsetOf(field);
        }
    }

    /** The plan for {@code type}, or null where its fields cannot be read at offsets. */
    static WritePlan of(Class<?> type) {
        if (!FieldAccess.available()) {
            return null;
        }
        try {
            return new PojoPlan(type, FieldOrder.of(type));
        } catch (RuntimeException unreadable) {
            return null;
        }
    }

    private static byte kindOf(Class<?> type) {
        if (type == boolean.class) {
            return BOOLEAN;
        } else if (type == byte.class) {
            return BYTE;
        } else if (type == short.class) {
            return SHORT;
        } else if (type == int.class) {
            return BYTE_SHORT_INT;
        } else if (type == char.class) {
            return CHAR;
        } else if (type == long.class) {
            return LONG;
        } else if (type == float.class) {
            return FLOAT;
        } else if (type == double.class) {
            return DOUBLE;
        } else if (type == String.class) {
            return STRING;
        } else if (type == Date.class || type == java.sql.Date.class || type == java.sql.Timestamp.class
                || type == java.sql.Time.class) {
            return DATE; // by the field's declared type, as hessian-lite does: whatever Date subclass it holds
        }
        return OBJECT;
    }

    @Override
    public void write(Object value, FastHessian2Output out) throws IOException {
        if (out.addRef(value)) {
            return;
        }
        out.writeObjectStart(typeName, names);
        byte[] k = kinds;
        long[] at = offsets;
        for (int i = 0; i < k.length; i++) {
            writeField(k[i], value, at[i], out);
        }
    }

    private static void writeField(byte kind, Object owner, long at, FastHessian2Output out) throws IOException {
        switch (kind) {
            case BOOLEAN -> out.writeBoolean(FieldAccess.getBoolean(owner, at));
            case BYTE -> out.writeInt(FieldAccess.getByte(owner, at));
            case SHORT -> out.writeInt(FieldAccess.getShort(owner, at));
            case BYTE_SHORT_INT -> out.writeInt(FieldAccess.getInt(owner, at));
            case CHAR -> out.writeString(String.valueOf(FieldAccess.getChar(owner, at)));
            case LONG -> out.writeLong(FieldAccess.getLong(owner, at));
            case FLOAT -> out.writeDouble(FieldAccess.getFloat(owner, at));
            case DOUBLE -> out.writeDouble(FieldAccess.getDouble(owner, at));
            case STRING -> out.writeString((String) FieldAccess.getObject(owner, at));
            case DATE -> {
                Date date = (Date) FieldAccess.getObject(owner, at);
                if (date == null) {
                    out.writeNull();
                } else {
                    out.writeUTCDate(date.getTime());
                }
            }
            default -> out.writeObject(FieldAccess.getObject(owner, at));
        }
    }
}
