import { NotFoundState } from '@/components/ui/States';

export default function NftCollectionNotFound() {
  return <NotFoundState title="Not an NFT collection">The index knows no NFT collection at this address, or it is not an address.</NotFoundState>;
}
