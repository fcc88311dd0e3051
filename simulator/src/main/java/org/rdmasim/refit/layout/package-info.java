/**
 * Where weights live: trainer layouts (TP, PP, EP, ETP, CP, DP/FSDP) and inference layouts (TP, DP, EP
 * with redundant experts), each rank placed on a host's GPU, and the slice map between them: the byte
 * runs each inference rank needs from each trainer rank, following the real conversion code.
 */
package org.rdmasim.refit.layout;
