import { NotFoundState } from '@/components/ui/States';

export default function BlockNotFound() {
  return <NotFoundState title="Block not found">The index has no such block. It may not be indexed yet, or the id is malformed (workchain/shard/seqno).</NotFoundState>;
}
