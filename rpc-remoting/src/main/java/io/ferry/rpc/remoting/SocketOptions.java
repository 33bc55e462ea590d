package io.ferry.rpc.remoting;

import java.util.Objects;

/**
 * TCP options shared by clients and servers. Immutable; build with {@link #builder()}.
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

    private final boolean tcpNoDelay;
    private final boolean keepAlive;
    private final int sendBufferBytes;
    private final int receiveBufferBytes;
    private final int writeBufferLowWaterMark;
    private final int writeBufferHighWaterMark;

    private SocketOptions(Builder b) {
        this.tcpNoDelay = b.tcpNoDelay;
        this.keepAlive = b.keepAlive;
        this.sendBufferBytes = b.sendBufferBytes;
        this.receiveBufferBytes = b.receiveBufferBytes;
        this.writeBufferLowWaterMark = b.writeBufferLowWaterMark;
        this.writeBufferHighWaterMark = b.writeBufferHighWaterMark;
    }

    public static SocketOptions defaults() {
        return DEFAULTS;
    }

    public static Builder builder() {
        return new Builder();
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
        return Objects.hash(tcpNoDelay, keepAlive, sendBufferBytes, receiveBufferBytes, writeBufferLowWaterMark,
                writeBufferHighWaterMark);
    }

    @Override
    public String toString() {
        return "SocketOptions{tcpNoDelay=" + tcpNoDelay + ", keepAlive=" + keepAlive + ", sendBufferBytes="
                + (sendBufferBytes > 0 ? sendBufferBytes : "kernel's") + ", receiveBufferBytes="
                + (receiveBufferBytes > 0 ? receiveBufferBytes : "kernel's") + ", writeBufferWaterMarks="
                + writeBufferLowWaterMark + ".." + writeBufferHighWaterMark + "}";
    }

    public static final class Builder {
        private boolean tcpNoDelay = true;
        private boolean keepAlive = true;
        private int sendBufferBytes;
        private int receiveBufferBytes;
        private int writeBufferLowWaterMark = 32 * 1024;
        private int writeBufferHighWaterMark = 64 * 1024;

        public Builder tcpNoDelay(boolean on) {
            this.tcpNoDelay = on;
            return this;
        }

        public Builder keepAlive(boolean on) {
            this.keepAlive = on;
            return this;
        }

        public Builder sendBufferBytes(int bytes) {
            this.sendBufferBytes = Validate.atLeast("sendBufferBytes", bytes, 0);
            return this;
        }

        public Builder receiveBufferBytes(int bytes) {
            this.receiveBufferBytes = Validate.atLeast("receiveBufferBytes", bytes, 0);
            return this;
        }

        public Builder writeBufferWaterMarks(int low, int high) {
            Validate.atLeast("writeBufferLowWaterMark", low, 1);
            if (high < low) {
                throw new IllegalArgumentException("writeBufferHighWaterMark: " + high + " (expected: >= "
                        + "writeBufferLowWaterMark " + low + ")");
            }
            this.writeBufferLowWaterMark = low;
            this.writeBufferHighWaterMark = high;
            return this;
        }

        public SocketOptions build() {
            return new SocketOptions(this);
        }
    }
}
