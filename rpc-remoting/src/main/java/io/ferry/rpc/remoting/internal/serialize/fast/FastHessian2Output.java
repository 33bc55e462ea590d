package io.ferry.rpc.remoting.internal.serialize.fast;

import com.alibaba.com.caucho.hessian.io.Hessian2Output;
import com.alibaba.com.caucho.hessian.io.SerializerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * A hessian2 writer that produces exactly hessian-lite's bytes with less work: objects go through a plan prepared
 * once per class ({@link WritePlans}) instead of a serializer looked up per object, and strings are encoded in runs
 * of ASCII instead of char by char.
 *
 * <p>It <em>is</em> a {@link Hessian2Output}, so every hessian-lite serializer it falls back to (and every Ferry
 * signature taking one) works unchanged; but it overrides every write method to put the bytes into a buffer, a
 * reference table and a class-definition table of its own, so nothing can interleave with the parent's (unused)
 * buffer. The buffer has hessian-lite's size and is emptied into the stream at exactly the points where
 * hessian-lite's would be, because where a byte array splits into chunks depends on that position.
 *
 * <p>{@link #flush()} (final in the parent) reaches this buffer through the parent's stream field, which holds an
 * adapter here. Not thread-safe: one per encoding thread, {@link #init} between frames.
 */
public final class FastHessian2Output extends Hessian2Output {
    /** hessian-lite's buffer size: the flush positions, and so the chunking of byte arrays, depend on it. */
    static final int SIZE = Hessian2Output.SIZE;
    private static final int SCRATCH_CHARS = 512;

    private final byte[] buffer = new byte[SIZE];
    private final char[] scratch = new char[SCRATCH_CHARS];
    private final IdentityIndex refs = new IdentityIndex();
    private final IdentityIndex classDefs = new IdentityIndex();
    private Map<String, Integer> typeRefs;
    private int offset;
    private int refCount;
    private boolean unshared;
    private OutputStream sink;
    private WritePlans plans;
    /**
     * The plans of the last few factories this output wrote with (a service's, the JDK-only one for errors...),
     * so that switching between them per frame does not take the global table's lock.
     */
    private final WritePlans[] recentPlans = new WritePlans[4];
    private int nextRecent;
    /** The last class written and its plan: the elements of a list are mostly of one class. */
    private Class<?> lastType;
    private WritePlan lastPlan;

    public FastHessian2Output() {
        _os = new FlushAdapter();
    }

    public FastHessian2Output(OutputStream sink) {
        this();
        init(sink);
    }

    /** The parent's stream: its final flush() calls this one's flush(), which empties this output's buffer. */
    private final class FlushAdapter extends OutputStream {
        @Override
        public void write(int b) {
            throw new IllegalStateException("hessian-lite's own buffer is not used by " + FastHessian2Output.class);
        }

        @Override
        public void flush() throws IOException {
            drain();
            if (sink != null) {
                sink.flush();
            }
        }
    }

    @Override
    public void init(OutputStream os) {
        reset();
        sink = os;
    }

    @Override
    public void reset() {
        refs.clear();
        refCount = 0;
        classDefs.clear();
        typeRefs = null;
        offset = 0;
        unshared = false;
    }

    @Override
    public void free() {
        reset();
        sink = null;
    }

    @Override
    public void close() throws IOException {
        drain();
        OutputStream os = sink;
        sink = null;
        if (os != null) {
            os.flush();
            if (isCloseStreamOnClose()) {
                os.close();
            }
        }
    }

    @Override
    public void setSerializerFactory(SerializerFactory factory) {
        super.setSerializerFactory(factory);
        if (plans == null || !plans.isFor(factory)) {
            plans = factory == null ? null : plansOf(factory);
            lastType = null;
            lastPlan = null;
        }
    }

    private WritePlans plansOf(SerializerFactory factory) {
        for (WritePlans recent : recentPlans) {
            if (recent != null && recent.isFor(factory)) {
                return recent;
            }
        }
        WritePlans found = WritePlans.of(factory);
        recentPlans[nextRecent] = found;
        nextRecent = (nextRecent + 1) % recentPlans.length;
        return found;
    }

    /** The factory in use, hessian-lite's default if none was set. */
    SerializerFactory factory() {
        return findSerializerFactory();
    }

    @Override
    public boolean setUnshared(boolean isUnshared) {
        boolean old = unshared;
        unshared = isUnshared;
        return old;
    }

    /** Writes what is buffered to the stream (hessian-lite's flushBuffer, which the parent keeps final). */
    private void drain() throws IOException {
        int length = offset;
        if (length > 0) {
            offset = 0;
            if (sink != null) {
                sink.write(buffer, 0, length);
            }
        }
    }

    /** hessian-lite's check before most values: drain when fewer than {@code slack} bytes (or exactly) are left. */
    private void reserve(int slack) throws IOException {
        if (SIZE <= offset + slack) {
            drain();
        }
    }

    /** The same check, but draining only when strictly fewer are left (hessian-lite uses both). */
    private void reserveBelow(int slack) throws IOException {
        if (SIZE < offset + slack) {
            drain();
        }
    }

    // ---- values

    @Override
    public void writeObject(Object value) throws IOException {
        if (value == null) {
            writeNull();
            return;
        }
        Class<?> type = value.getClass();
        WritePlan plan = lastPlan;
        if (type != lastType) {
            WritePlans p = plans;
            if (p == null) {
                p = plans = plansOf(findSerializerFactory());
            }
            plan = p.planFor(type);
            lastType = type;
            lastPlan = plan;
        }
        plan.write(value, this);
    }

    @Override
    public void writeBoolean(boolean value) throws IOException {
        reserveBelow(16);
        buffer[offset++] = (byte) (value ? 'T' : 'F');
    }

    @Override
    public void writeNull() throws IOException {
        reserve(16);
        buffer[offset++] = 'N';
    }

    @Override
    public void writeInt(int value) throws IOException {
        reserve(16);
        offset = HessianNumbers.putInt(buffer, offset, value);
    }

    @Override
    public void writeLong(long value) throws IOException {
        reserve(16);
        offset = HessianNumbers.putLong(buffer, offset, value);
    }

    @Override
    public void writeDouble(double value) throws IOException {
        reserve(16);
        offset = HessianNumbers.putDouble(buffer, offset, value);
    }

    @Override
    public void writeUTCDate(long time) throws IOException {
        reserveBelow(32);
        offset = HessianNumbers.putDate(buffer, offset, time);
    }

    // ---- strings: 'R' chunks of 32768 chars (never ending in a high surrogate), then the last part

    @Override
    public void writeString(String value) throws IOException {
        reserve(16);
        if (value == null) {
            buffer[offset++] = 'N';
            return;
        }
        int length = value.length();
        int from = 0;
        while (length > 0x8000) {
            int part = 0x8000;
            reserve(16);
            if (Character.isHighSurrogate(value.charAt(from + part - 1))) {
                part--;
            }
            buffer[offset++] = 'R';
            buffer[offset++] = (byte) (part >> 8);
            buffer[offset++] = (byte) part;
            printString(value, from, part);
            length -= part;
            from += part;
        }
        reserve(16);
        putStringHeader(length);
        printString(value, from, length);
    }

    @Override
    public void writeString(char[] chars, int from, int length) throws IOException {
        if (chars == null) {
            reserveBelow(16);
            buffer[offset++] = 'N';
            return;
        }
        while (length > 0x8000) {
            int part = 0x8000;
            reserveBelow(16);
            if (Character.isHighSurrogate(chars[from + part - 1])) {
                part--;
            }
            buffer[offset++] = 'R';
            buffer[offset++] = (byte) (part >> 8);
            buffer[offset++] = (byte) part;
            printChars(chars, from, part);
            length -= part;
            from += part;
        }
        reserveBelow(16);
        putStringHeader(length);
        printChars(chars, from, length);
    }

    private void putStringHeader(int length) {
        if (length <= 0x1f) {
            buffer[offset++] = (byte) length;
        } else if (length <= 0x3ff) {
            buffer[offset++] = (byte) (0x30 + (length >> 8));
            buffer[offset++] = (byte) length;
        } else {
            buffer[offset++] = 'S';
            buffer[offset++] = (byte) (length >> 8);
            buffer[offset++] = (byte) length;
        }
    }

    /** The chars as hessian's UTF-8 (a surrogate is 3 bytes on its own), copied through a scratch array in runs. */
    @Override
    public void printString(String value, int from, int length) throws IOException {
        int end = from + length;
        while (from < end) {
            int n = Math.min(SCRATCH_CHARS, end - from);
            value.getChars(from, from + n, scratch, 0);
            printChars(scratch, 0, n);
            from += n;
        }
    }

    @Override
    public void printString(String value) throws IOException {
        printString(value, 0, value.length());
    }

    /**
     * hessian-lite checks before every char whether 16 bytes are left; an ASCII char takes one byte, so a run of as
     * many ASCII chars as there is room for needs no check until its end, and is copied as a block.
     */
    @Override
    public void printString(char[] chars, int from, int length) throws IOException {
        printChars(chars, from, length);
    }

    private void printChars(char[] chars, int from, int length) throws IOException {
        int end = from + length;
        int i = from;
        while (i < end) {
            int room = SIZE - 16 - offset;
            if (room <= 0) {
                drain();
                room = SIZE - 16;
            }
            int stop = Math.min(end, i + room);
            i = copyIfAscii(chars, i, stop) ? stop : encodeUntilNonAscii(chars, i, stop);
        }
    }

    /**
     * Copies the run as bytes and keeps it if every char was ASCII; one loop without an early exit, which the JIT
     * can turn into vector instructions. Otherwise the copy is left beyond the offset, to be overwritten.
     */
    private boolean copyIfAscii(char[] chars, int from, int to) {
        byte[] buf = buffer;
        int at = offset - from;
        int bits = 0;
        for (int i = from; i < to; i++) {
            char ch = chars[i];
            bits |= ch;
            buf[at + i] = (byte) ch;
        }
        if (bits >= 0x80) {
            return false;
        }
        offset = at + to;
        return true;
    }

    /** The ASCII chars up to the first other one, and that one (2 or 3 bytes); returns where to go on. */
    private int encodeUntilNonAscii(char[] chars, int i, int stop) {
        byte[] buf = buffer;
        int at = offset;
        while (i < stop) {
            char ch = chars[i++];
            if (ch < 0x80) {
                buf[at++] = (byte) ch;
            } else if (ch < 0x800) {
                buf[at++] = (byte) (0xc0 + ((ch >> 6) & 0x1f));
                buf[at++] = (byte) (0x80 + (ch & 0x3f));
                break;
            } else {
                buf[at++] = (byte) (0xe0 + ((ch >> 12) & 0xf));
                buf[at++] = (byte) (0x80 + ((ch >> 6) & 0x3f));
                buf[at++] = (byte) (0x80 + (ch & 0x3f));
                break;
            }
        }
        offset = at;
        return i;
    }

    @Override
    public void printLenString(String value) throws IOException {
        reserveBelow(16);
        if (value == null) {
            buffer[offset++] = 0;
            buffer[offset++] = 0;
        } else {
            buffer[offset++] = (byte) (value.length() >> 8);
            buffer[offset++] = (byte) value.length();
            printString(value, 0, value.length());
        }
    }

    // ---- binary: chunk sizes depend on where the buffer stands, as in hessian-lite

    @Override
    public void writeBytes(byte[] bytes) throws IOException {
        if (bytes == null) {
            reserveBelow(16);
            buffer[offset++] = 'N';
        } else {
            writeBytes(bytes, 0, bytes.length);
        }
    }

    @Override
    public void writeBytes(byte[] bytes, int from, int length) throws IOException {
        if (bytes == null) {
            reserveBelow(16);
            buffer[offset++] = 'N';
            return;
        }
        while (SIZE - offset - 3 < length) {
            int part = SIZE - offset - 3;
            if (part < 16) {
                drain();
                part = Math.min(length, SIZE - offset - 3);
            }
            buffer[offset++] = 'A';
            buffer[offset++] = (byte) (part >> 8);
            buffer[offset++] = (byte) part;
            System.arraycopy(bytes, from, buffer, offset, part);
            offset += part;
            length -= part;
            from += part;
            drain();
        }
        reserveBelow(16);
        if (length <= 0x0f) {
            buffer[offset++] = (byte) (0x20 + length);
        } else if (length <= 0x3ff) {
            buffer[offset++] = (byte) (0x34 + (length >> 8));
            buffer[offset++] = (byte) length;
        } else {
            buffer[offset++] = 'B';
            buffer[offset++] = (byte) (length >> 8);
            buffer[offset++] = (byte) length;
        }
        System.arraycopy(bytes, from, buffer, offset, length);
        offset += length;
    }

    @Override
    public void writeByteBufferStart() {
    }

    @Override
    public void writeByteBufferPart(byte[] bytes, int from, int length) throws IOException {
        while (length > 0) {
            reserveBelow(32);
            // hessian-lite sizes the chunk to the room left without its 3 header bytes, and so overruns its buffer
            // on a long part; refuse that case rather than write different bytes
            int part = Math.min(length, SIZE - offset);
            if (part > SIZE - offset - 3) {
                throw new IOException("byte buffer part of " + length + " bytes does not fit hessian's buffer");
            }
            buffer[offset++] = 'A';
            buffer[offset++] = (byte) (part >> 8);
            buffer[offset++] = (byte) part;
            System.arraycopy(bytes, from, buffer, offset, part);
            offset += part;
            length -= part;
            from += part;
        }
    }

    @Override
    public void writeByteBufferEnd(byte[] bytes, int from, int length) throws IOException {
        writeBytes(bytes, from, length);
    }

    @Override
    public OutputStream getBytesOutputStream() {
        throw unsupported("getBytesOutputStream");
    }

    /**
     * The stream read straight into the buffer in non-final 'A' chunks as large as the room left (so their sizes
     * depend on the buffer's position and on what each read returns, as in hessian-lite), then an empty final chunk.
     * hessian-lite's InputStreamSerializer writes an InputStream value of a graph this way.
     */
    @Override
    public void writeByteStream(InputStream is) throws IOException {
        while (true) {
            int room = SIZE - offset - 3;
            if (room < 16) {
                drain();
                room = SIZE - offset - 3;
            }
            int read = is.read(buffer, offset + 3, room);
            if (read <= 0) {
                buffer[offset++] = 0x20;
                return;
            }
            buffer[offset] = 'A';
            buffer[offset + 1] = (byte) (read >> 8);
            buffer[offset + 2] = (byte) read;
            offset += read + 3;
        }
    }

    // ---- lists, maps, objects

    @Override
    public boolean writeListBegin(int length, String type) throws IOException {
        reserveBelow(32);
        if (length < 0) {
            buffer[offset++] = (byte) (type != null ? 0x55 : 0x57);
            if (type != null) {
                writeType(type);
            }
            return true;
        }
        if (length <= 7) {
            buffer[offset++] = (byte) ((type != null ? 0x70 : 0x78) + length);
            if (type != null) {
                writeType(type);
            }
            return false;
        }
        buffer[offset++] = (byte) (type != null ? 'V' : 0x58);
        if (type != null) {
            writeType(type);
        }
        writeInt(length);
        return false;
    }

    @Override
    public void writeListEnd() throws IOException {
        reserveBelow(32);
        buffer[offset++] = 'Z';
    }

    @Override
    public void writeMapBegin(String type) throws IOException {
        reserveBelow(32);
        if (type != null) {
            buffer[offset++] = 'M';
            writeType(type);
        } else {
            buffer[offset++] = 'H';
        }
    }

    @Override
    public void writeMapEnd() throws IOException {
        reserveBelow(32);
        buffer[offset++] = 'Z';
    }

    /** A type name the first time, its index after (by equality, unlike class definitions). */
    private void writeType(String type) throws IOException {
        reserveBelow(32);
        if (type.isEmpty()) {
            throw new IllegalArgumentException("empty type is not allowed");
        }
        if (typeRefs == null) {
            typeRefs = new HashMap<>();
        }
        Integer index = typeRefs.get(type);
        if (index != null) {
            writeInt(index);
        } else {
            typeRefs.put(type, typeRefs.size());
            writeString(type);
        }
    }

    /**
     * The class definition's index if it was written, else the definition's start and -1. hessian-lite keys
     * definitions by the identity of the name, so two equal names from different strings are two definitions.
     */
    @Override
    public int writeObjectBegin(String type) throws IOException {
        int next = classDefs.size();
        int index = classDefs.putIfAbsent(type, next);
        reserveBelow(32);
        if (index != next) {
            if (index <= 0x0f) {
                buffer[offset++] = (byte) (0x60 + index);
            } else {
                buffer[offset++] = 'O';
                writeInt(index);
            }
            return index;
        }
        buffer[offset++] = 'C';
        writeString(type);
        return -1;
    }

    @Override
    public void writeClassFieldLength(int length) throws IOException {
        writeInt(length);
    }

    /**
     * An object's start as hessian-lite's UnsafeSerializer writes it: the class definition (field count and names)
     * the first time {@code type} is written, then the object's reference to that definition.
     */
    void writeObjectStart(String type, String[] fieldNames) throws IOException {
        if (writeObjectBegin(type) == -1) {
            writeClassFieldLength(fieldNames.length);
            for (String name : fieldNames) {
                writeString(name);
            }
            writeObjectBegin(type);
        }
    }

    @Override
    public void writeObjectEnd() {
    }

    // ---- references

    @Override
    protected void writeRef(int index) throws IOException {
        reserveBelow(16);
        buffer[offset++] = 0x51;
        writeInt(index);
    }

    @Override
    public boolean addRef(Object value) throws IOException {
        if (unshared) {
            refCount++;
            return false;
        }
        int next = refCount;
        int index = refs.putIfAbsent(value, next);
        if (index != next) {
            writeRef(index);
            return true;
        }
        refCount++;
        return false;
    }

    /**
     * Takes the next reference number for an object no value can ever refer back to: hessian-lite adds the handle
     * it makes for each java.time value, not the value, so a plan writing the same bytes without the handle only
     * counts it.
     */
    void skipRef() {
        refCount++;
    }

    @Override
    public int getRef(Object value) {
        return unshared ? -1 : refs.get(value);
    }

    @Override
    public boolean removeRef(Object value) {
        if (unshared) {
            return false;
        }
        refs.remove(value);
        return true;
    }

    @Override
    public boolean replaceRef(Object oldRef, Object newRef) {
        if (unshared) {
            return false;
        }
        int index = refs.get(oldRef);
        if (index < 0) {
            return false;
        }
        refs.put(newRef, index);
        refs.remove(oldRef);
        return true;
    }

    @Override
    public void resetReferences() {
        refs.clear();
        refCount = 0;
    }

    // ---- hessian's RPC envelope and packets: not Dubbo's wire, never called by Ferry or a serializer

    @Override
    public void call(String method, Object[] args) {
        throw unsupported("call");
    }

    @Override
    public void startCall(String method, int length) {
        throw unsupported("startCall");
    }

    @Override
    public void startCall() {
        throw unsupported("startCall");
    }

    @Override
    public void startEnvelope(String method) {
        throw unsupported("startEnvelope");
    }

    @Override
    public void completeEnvelope() {
        throw unsupported("completeEnvelope");
    }

    @Override
    public void writeMethod(String method) {
        throw unsupported("writeMethod");
    }

    @Override
    public void completeCall() {
        throw unsupported("completeCall");
    }

    @Override
    public void startReply() {
        throw unsupported("startReply");
    }

    @Override
    public void writeVersion() {
        throw unsupported("writeVersion");
    }

    @Override
    public void completeReply() {
        throw unsupported("completeReply");
    }

    @Override
    public void startMessage() {
        throw unsupported("startMessage");
    }

    @Override
    public void completeMessage() {
        throw unsupported("completeMessage");
    }

    @Override
    public void writeFault(String code, String message, Object detail) {
        throw unsupported("writeFault");
    }

    @Override
    public void writeStreamingObject(Object obj) {
        throw unsupported("writeStreamingObject");
    }

    @Override
    public void startPacket() {
        throw unsupported("startPacket");
    }

    @Override
    public void endPacket() {
        throw unsupported("endPacket");
    }

    @Override
    public void initPacket(OutputStream os) {
        throw unsupported("initPacket");
    }

    private static UnsupportedOperationException unsupported(String method) {
        return new UnsupportedOperationException(method + ": hessian's RPC envelope and packets are not used on "
                + "Dubbo's wire, and " + FastHessian2Output.class.getSimpleName() + " does not write them");
    }
}
