package io.ferry.rpc.benchmark.suite.workload;

import java.io.Serializable;
import java.util.List;

/** One page of users, as listUser returns it. */
public class UserPage implements Serializable {
    private static final long serialVersionUID = 1L;

    private int pageNo;
    private int total;
    private List<User> users;

    public int getPageNo() {
        return pageNo;
    }

    public void setPageNo(int pageNo) {
        this.pageNo = pageNo;
    }

    public int getTotal() {
        return total;
    }

    public void setTotal(int total) {
        this.total = total;
    }

    public List<User> getUsers() {
        return users;
    }

    public void setUsers(List<User> users) {
        this.users = users;
    }
}
