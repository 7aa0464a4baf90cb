package org.picothreads.benchmarks;

/**
 * Call-heavy code that never suspends, seen through an interface so that a benchmark can hold a copy loaded as
 * javac wrote it and a copy rewritten by the transformer side by side ({@link WorkloadLoader}).
 */
public interface CallHeavy {

    /** Recursive Fibonacci: about 1.6^n calls. */
    int fib(int n);

    /** Builds a complete binary tree of the given depth once; {@link #walkTree} walks it. */
    void buildTree(int depth);

    /** Sums the values of the tree built by {@link #buildTree}, one call per node. */
    long walkTree();

    /** A tight loop of {@code calls} calls of a small method. */
    long smallCalls(int calls);
}
