import { NotFoundState } from '@/components/ui/States';

export default function TraceNotFound() {
  return <NotFoundState title="Trace not found">The index has no trace with this id, nor a transaction with this hash (it may not be indexed yet).</NotFoundState>;
}
