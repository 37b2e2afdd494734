import { NotFoundState } from '@/components/ui/States';

export default function DomainNotFound() {
  return <NotFoundState title="Unknown domain">The index knows no .ton name like this (names look like alice.ton).</NotFoundState>;
}
