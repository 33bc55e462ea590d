package io.ferry.rpc.benchmark.suite.systems;

import io.ferry.rpc.benchmark.suite.workload.User;
import io.ferry.rpc.benchmark.suite.workload.UserPage;

import java.util.ArrayList;
import java.util.Date;
import java.util.List;

/**
 * The workload's records as the grpc system's protobuf messages ({@code src/main/protobuf/user_service.proto}) and
 * back, field for field: the same values on every system's wire. A {@link Date} travels as its milliseconds since the
 * epoch, all it holds; the workload's records set every field, so no null is mapped.
 */
final class UserMessages {
    private UserMessages() {
    }

    static io.ferry.rpc.benchmark.suite.grpc.User message(User user) {
        return io.ferry.rpc.benchmark.suite.grpc.User.newBuilder()
                .setId(user.getId())
                .setName(user.getName())
                .setSex(user.getSex())
                .setBirthdayMillis(user.getBirthday().getTime())
                .setEmail(user.getEmail())
                .setMobile(user.getMobile())
                .setAddress(user.getAddress())
                .setIcon(user.getIcon())
                .addAllPermissions(user.getPermissions())
                .setStatus(user.getStatus())
                .setCreateTimeMillis(user.getCreateTime().getTime())
                .setUpdateTimeMillis(user.getUpdateTime().getTime())
                .build();
    }

    static User user(io.ferry.rpc.benchmark.suite.grpc.User message) {
        User user = new User();
        user.setId(message.getId());
        user.setName(message.getName());
        user.setSex(message.getSex());
        user.setBirthday(new Date(message.getBirthdayMillis()));
        user.setEmail(message.getEmail());
        user.setMobile(message.getMobile());
        user.setAddress(message.getAddress());
        user.setIcon(message.getIcon());
        user.setPermissions(new ArrayList<>(message.getPermissionsList()));
        user.setStatus(message.getStatus());
        user.setCreateTime(new Date(message.getCreateTimeMillis()));
        user.setUpdateTime(new Date(message.getUpdateTimeMillis()));
        return user;
    }

    static io.ferry.rpc.benchmark.suite.grpc.UserPage message(UserPage page) {
        io.ferry.rpc.benchmark.suite.grpc.UserPage.Builder message = io.ferry.rpc.benchmark.suite.grpc.UserPage
                .newBuilder().setPageNo(page.getPageNo()).setTotal(page.getTotal());
        page.getUsers().forEach(u -> message.addUsers(message(u)));
        return message.build();
    }

    static UserPage page(io.ferry.rpc.benchmark.suite.grpc.UserPage message) {
        List<User> users = new ArrayList<>(message.getUsersCount());
        message.getUsersList().forEach(m -> users.add(user(m)));
        UserPage page = new UserPage();
        page.setPageNo(message.getPageNo());
        page.setTotal(message.getTotal());
        page.setUsers(users);
        return page;
    }
}
