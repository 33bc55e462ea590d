package io.ferry.rpc.remoting;

import io.ferry.rpc.option.Option;
import io.ferry.rpc.option.OptionValues;

import static io.ferry.rpc.remoting.TransportOptions.KEEP_ALIVE;
import static io.ferry.rpc.remoting.TransportOptions.RECEIVE_BUFFER;
import static io.ferry.rpc.remoting.TransportOptions.SEND_BUFFER;
import static io.ferry.rpc.remoting.TransportOptions.TCP_NO_DELAY;
import static io.ferry.rpc.remoting.TransportOptions.WRITE_BUFFER_HIGH;
import static io.ferry.rpc.remoting.TransportOptions.WRITE_BUFFER_LOW;

/**
 * TCP options shared by clients and servers. Immutable; build with {@link #builder()}. Each option, its default and
 * range is declared in {@link TransportOptions}:
 *
 * <table>
 *   <caption>Options and defaults</caption>
 *   <tr><th>option</th><th>default</th><th>why</th></tr>
 *   <tr><td>tcpNoDelay</td><td>true</td><td>small request/answer pairs must not wait for a delayed ACK (Nagle)</td></tr>
 *   <tr><td>keepAlive</td><td>true</td><td>the kernel notices peers that vanished without a FIN</td></tr>
 *   <tr><td>sendBufferBytes</td><td>0 = OS default</td><td>raise for large responses on long-RTT links</td></tr>
 *   <tr><td>receiveBufferBytes</td><td>0 = OS default</td><td></td></tr>
 *   <tr><td>writeBufferLowWaterMark</td><td>32 KiB</td><td>a connection is writable again below this</td></tr>
 *   <tr><td>writeBufferHighWaterMark</td><td>64 KiB</td><td>a connection is unwritable above this</td></tr>
 * </table>
 */
public final class SocketOptions {
    private static final SocketOptions DEFAULTS = builder().build();

    private final OptionValues values;
    private final boolean tcpNoDelay;
    private final boolean keepAlive;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private final int writeBufferLowWaterMark;
    private final int writeBufferHighWaterMark;

    private SocketOptions(OptionValues values) {
        this.values = values;
        this.tcpNoDelay = values.get(TCP_NO_DELAY);
        this.keepAlive = values.get(KEEP_ALIVE);
        this.sendBufferBytes = values.get(SEND_BUFFER);
        this.receiveBufferBytes = values.get(RECEIVE_BUFFER);
        this.writeBufferLowWaterMark = values.get(WRITE_BUFFER_LOW);
        this.writeBufferHighWaterMark = values.get(WRITE_BUFFER_HIGH);
        checkMarks(writeBufferLowWaterMark, writeBufferHighWaterMark);
    }

    private static void checkMarks(int low, int high) {
        if (high < low) {
            throw new IllegalArgumentException("writeBufferHighWaterMark: " + high
                    + " (expected: >= writeBufferLowWaterMark " + low + ")");
        }
    }

    public static SocketOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder(OptionValues.none());
    }

    public Builder toBuilder() {
        return new Builder(values);
    }

    /** The options set on this object (the rest are at their defaults). */
    public OptionValues values() {
        return values;
    }

    public boolean tcpNoDelay() {
        return tcpNoDelay;
    }

    public boolean keepAlive() {
        return keepAlive;
    }

    public int sendBufferBytes() {
        return sendBufferBytes;
    }

    public int receiveBufferBytes() {
        return receiveBufferBytes;
    }

    public int writeBufferLowWaterMark() {
        return writeBufferLowWaterMark;
    }

    public int writeBufferHighWaterMark() {
        return writeBufferHighWaterMark;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SocketOptions other && tcpNoDelay == other.tcpNoDelay && keepAlive == other.keepAlive
                && sendBufferBytes == other.sendBufferBytes && receiveBufferBytes == other.receiveBufferBytes
                && writeBufferLowWaterMark == other.writeBufferLowWaterMark
                && writeBufferHighWaterMark == other.writeBufferHighWaterMark;
    }

    @Override
    public int hashCode() {
        return java.util.Objects.hash(tcpNoDelay, keepAlive, sendBufferBytes, receiveBufferBytes,
                writeBufferLowWaterMark, writeBufferHighWaterMark);
    }

    @Override
    public String toString() {
        return "SocketOptions{tcpNoDelay=" + tcpNoDelay + ", keepAlive=" + keepAlive + ", sendBufferBytes="
                + (sendBufferBytes > 0 ? sendBufferBytes : "kernel's") + ", receiveBufferBytes="
                + (receiveBufferBytes > 0 ? receiveBufferBytes : "kernel's") + ", writeBufferWaterMarks="
                + writeBufferLowWaterMark + ".." + writeBufferHighWaterMark + "}";
    }

    public static final class Builder {
        private OptionValues values;

        private Builder(OptionValues values) {
            this.values = values;
        }

        /**
         * Sets one of {@link TransportOptions#SOCKET}, checked by the option.
         *
         * @throws IllegalArgumentException naming the option, the value and its range, or the options there are
         */
        public <T> Builder option(Option<T> option, T value) {
            values = values.with(TransportOptions.accepted(option, TransportOptions.SOCKET, "a socket"), value);
            return this;
        }

        public Builder tcpNoDelay(boolean on) {
            return option(TCP_NO_DELAY, on);
        }

        public Builder keepAlive(boolean on) {
            return option(KEEP_ALIVE, on);
        }

        public Builder sendBufferBytes(int bytes) {
            return option(SEND_BUFFER, bytes);
        }

        public Builder receiveBufferBytes(int bytes) {
            return option(RECEIVE_BUFFER, bytes);
        }

        /** Both marks at once, so that a pair that is valid together is never refused half-set. */
        public Builder writeBufferWaterMarks(int low, int high) {
            checkMarks(WRITE_BUFFER_LOW.check(low, ""), WRITE_BUFFER_HIGH.check(high, ""));
            return option(WRITE_BUFFER_LOW, low).option(WRITE_BUFFER_HIGH, high);
        }

        /** @throws IllegalArgumentException when the high water mark is below the low one */
        public SocketOptions build() {
            return new SocketOptions(values);
        }
    }
}
