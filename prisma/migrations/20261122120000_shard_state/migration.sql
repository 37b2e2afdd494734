-- CreateTable
CREATE TABLE "shard_state" (
    "mc_seqno" INTEGER NOT NULL,
    "workchain" INTEGER NOT NULL,
    "shard" BIGINT NOT NULL,
    "seqno" INTEGER NOT NULL,

    CONSTRAINT "shard_state_pkey" PRIMARY KEY ("mc_seqno","workchain","shard")
);
