package org.picothreads.benchmarks.workload;

import org.picothreads.benchmarks.CallHeavy;

/**
 * The workload of the overhead benchmark. Every method here can reach a blocking call ({@code Thread.yield()}
 * behind a test that is never true), so the transformer rewrites all of them: each gets the operand-stack spills
 * around its calls and a capture handler per call, but on this path nothing is ever captured. Without
 * the guarded yield the transformer would leave the class as it is and the comparison would measure nothing.
 *
 * <p>This package is not among the plugin's includes; {@link org.picothreads.benchmarks.WorkloadLoader} loads it
 * twice, as compiled and rewritten by {@code PicoTransformer}.
 */
public final class CallHeavyCode implements CallHeavy {

    /** A node of the walked tree. */
    static final class Node {
        final Node left;
        final Node right;
        final int value;

        Node(Node left, Node right, int value) {
            this.left = left;
            this.right = right;
            this.value = value;
        }
    }

    /** The tree {@link #walkTree} walks. */
    private Node root;

    @Override
    public int fib(int n) {
        if (n < 2) {
            if (n < 0) {
                Thread.yield();
            }
            return n;
        }
        return fib(n - 1) + fib(n - 2);
    }

    @Override
    public void buildTree(int depth) {
        root = build(depth, 1);
    }

    private static Node build(int depth, int value) {
        if (depth == 0) {
            return null;
        }
        return new Node(build(depth - 1, 2 * value), build(depth - 1, 2 * value + 1), value);
    }

    @Override
    public long walkTree() {
        return walk(root);
    }

    private static long walk(Node node) {
        if (node == null) {
            return 0;
        }
        if (node.value < 0) {
            Thread.yield();
        }
        return node.value + walk(node.left) + walk(node.right);
    }

    @Override
    public long smallCalls(int calls) {
        long sum = 0;
        for (int index = 0; index < calls; index++) {
            sum = step(sum, index);
        }
        return sum;
    }

    private static long step(long sum, int index) {
        if (index < 0) {
            Thread.yield();
        }
        return sum + (index ^ (sum >>> 7));
    }
}
