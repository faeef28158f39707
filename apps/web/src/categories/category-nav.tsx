import type { Category } from '@mt/api-client';
import { Link, useLocation } from 'wouter';
import { useSession } from '../app/services';
import { entryNoun } from './labels';

/** Browse · My list · Add · Diary · Statistics · Import & export: the places of one category. */
export function CategoryNav({ category }: { category: Category }) {
  const [location] = useLocation();
  const session = useSession();
  const base = `/${category.id}`;
  const links = [
    { href: base, label: 'Browse' },
    { href: `${base}/list`, label: 'My list' },
    ...(session
      ? [
          { href: `${base}/new`, label: `Add a ${entryNoun(category)}` },
          { href: `${base}/diary`, label: 'Diary' },
          { href: `${base}/stats`, label: 'Statistics' },
          { href: `${base}/import`, label: 'Import & export' },
        ]
      : []),
  ];
  return (
    <nav aria-label={`${category.display_name} sections`} className="subnav">
      <ul>
        {links.map((link) => (
          <li key={link.href}>
            <Link href={link.href} aria-current={location === link.href ? 'page' : undefined}>
              {link.label}
            </Link>
          </li>
        ))}
      </ul>
    </nav>
  );
}
