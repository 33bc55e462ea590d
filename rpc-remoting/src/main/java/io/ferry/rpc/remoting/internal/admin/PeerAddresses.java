package io.ferry.rpc.remoting.internal.admin;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** Which peers count as this machine for the admin port: loopback only, IPv4-mapped IPv6 included. */
public final class PeerAddresses {
    private PeerAddresses() {
    }

    /** Whether {@code peer} is a loopback address; anything else (unknown kinds included) is foreign. */
    public static boolean isLocal(SocketAddress peer) {
        return peer instanceof InetSocketAddress inet && inet.getAddress() != null && isLocal(inet.getAddress());
    }

    static boolean isLocal(InetAddress address) {
        if (address.isLoopbackAddress()) {
            return true;
        }
        // ::ffff:127.x.x.x, as a dual-stack socket may report an IPv4 loopback peer
        if (address instanceof Inet6Address) {
            byte[] b = address.getAddress();
            for (int i = 0; i < 10; i++) {
                if (b[i] != 0) {
                    return false;
                }
            }
            return b[10] == (byte) 0xff && b[11] == (byte) 0xff && b[12] == 127;
        }
        return false;
    }
}
