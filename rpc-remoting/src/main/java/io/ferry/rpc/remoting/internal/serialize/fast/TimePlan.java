package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Serializer;
import com.alibaba.com.caucho.hessian.io.java8.SerializationConfig;

import java.io.IOException;

/**
 * A {@code java.time} value as hessian-lite writes it, without the handle object hessian-lite makes for it on every
 * write ({@code LocalDateHandle}...): what its UnsafeSerializer writes for that handle, which is a reference number
 * for the handle, the handle class's definition, then the handle's fields in {@link FieldOrder}, each read from the
 * value with the getter the handle's constructor calls. The value itself is never a reference: the same
 * {@code LocalDate} twice is written twice, as in hessian-lite.
 */
final class TimePlan implements WritePlan {
    private final String handleName;
    private final String[] fieldNames;
    private final WritePlan fields;
    private final Serializer stock;

    /**
     * @param handleName the handle class's {@code getName()}: hessian-lite keys class definitions by the name's
     *                   identity, so it must be that very string
     * @param fields     writes the handle's field values, read from the value, in the order of {@code fieldNames}
     * @param stock      hessian-lite's serializer for the value's class
     */
    TimePlan(String handleName, String[] fieldNames, WritePlan fields, Serializer stock) {
        this.handleName = handleName;
        this.fieldNames = fieldNames.clone();
        this.fields = fields;
        this.stock = stock;
    }

    @Override
    public void write(Object value, FastHessian2Output out) throws IOException {
        if (SerializationConfig.isCompactMode()) {
            // hessian-lite checks its compact mode at every write and then writes LocalDate, LocalDateTime and
            // LocalTime another way: its own serializer writes them all then
            stock.writeObject(value, out);
            return;
        }
        out.skipRef();
        out.writeObjectStart(handleName, fieldNames);
        fields.write(value, out);
    }
}
