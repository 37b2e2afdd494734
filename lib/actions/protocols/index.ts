// The matchers in the order they run: a node taken by one is not matched again as a base node, so
// protocol flows that contain simpler ones (a swap holds jetton transfers) run after those.
import { jettonMatchers as jettons } from './jettons';
import type { Matcher } from './matcher';

export const MATCHERS: Matcher[] = [jettons.mint, jettons.transfer, jettons.burn];
