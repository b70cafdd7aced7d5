import { useRoute } from '../hash-router.js';
import { ProductionList } from './ProductionList.js';
import { ProductionThreadPage } from './ProductionThreadPage.js';
import './productions.css';

/** `#/productions` lists them; `#/productions/<id>` is one production's thread. */
export function ProductionsPage() {
  const { pathname } = useRoute();
  const id = pathname.split('/')[2];
  return id ? <ProductionThreadPage id={decodeURIComponent(id)} /> : <ProductionList />;
}
